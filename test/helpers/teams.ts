/**
 * A relay with Teams on (and nothing else), as production wires it (`startService` from a
 * config `loadConfig` parsed), on loopback and a temp SQLite file, pointed at the emulator and
 * the fake Bot Connector, which signs the activities it sends. The key source and the login
 * endpoint are the fake's, through the platforms' test-only overrides.
 */
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator, EmulatorTimings } from '../../src/emulator/index.js';
import {
  FAKE_TEAMS_APP_ID,
  FAKE_TEAMS_APP_PASSWORD,
  FAKE_TEAMS_TENANT,
  startFakeTeams,
  type ConnectorActivity,
  type FakeTeams,
  shownText,
  type SendOptions,
} from '../../src/fakes/teams-connector.js';

export { shownText };
import { captureLogs } from './log-capture.js';
import type { LogCapture } from './log-capture.js';
import { QUICK_TIMINGS, startRelayService } from './relay.js';
import type { RelayService } from './relay.js';
import { SECRETS } from './secrets.js';

export interface TeamsWorld {
  relay: RelayService;
  teams: FakeTeams;
  emulator: Emulator;
  logs: LogCapture;
  messagesUrl: string;
  send(
    activity: Record<string, unknown>,
    options?: SendOptions,
  ): Promise<{ status: number; answer: Record<string, unknown> }>;
  /** Wait until one of the bot's activities in the conversation satisfies `accept`. */
  waitFor(
    conversationId: string,
    accept: (text: string, a: ConnectorActivity) => boolean,
    timeoutMs?: number,
  ): Promise<ConnectorActivity>;
  /**
   * Start another relay, as a second replica, on the same SQLite file: its messages URL. It
   * stops with the world.
   */
  startReplica(): Promise<string>;
  close(): Promise<void>;
}

export async function startTeamsWorld(
  options: { env?: Record<string, string>; timings?: Partial<EmulatorTimings> } = {},
): Promise<TeamsWorld> {
  const logs = captureLogs({ test: 'teams' });
  const emulator = await startEmulator({
    apiKey: SECRETS.agentApiKey,
    timings: { ...QUICK_TIMINGS, ...options.timings },
    tickMs: 10,
  });
  const teams = await startFakeTeams();
  const env = {
    AGENT_API_URL: emulator.baseUrl,
    AGENT_API_KEY: SECRETS.agentApiKey,
    POLL_INTERVAL_MS: '100',
    SHUTDOWN_TIMEOUT_MS: '2000',
    TEAMS_APP_ID: FAKE_TEAMS_APP_ID,
    TEAMS_APP_PASSWORD: FAKE_TEAMS_APP_PASSWORD,
    TEAMS_TENANT_ID: FAKE_TEAMS_TENANT,
    TEAMS_ALLOWED_TENANTS: FAKE_TEAMS_TENANT,
    LOG_LEVEL: 'debug',
    ...options.env,
  };
  const serviceOptions = {
    logger: logs.logger,
    engineOptions: { workerPollMs: 20, inboxRetryDelaysMs: [300, 300, 300, 300] },
    platforms: {
      teamsOpenIdMetadataUrl: teams.openIdMetadataUrl,
      teamsLoginEndpoint: teams.url,
    },
  };
  const replicas: RelayService[] = [];
  const relay = await startRelayService(env, serviceOptions).catch(async (err: unknown) => {
    await Promise.all([emulator.close(), teams.close()]);
    throw err;
  });
  const messagesUrl = `${relay.service.url}/teams/messages`;
  return {
    relay,
    teams,
    emulator,
    logs,
    messagesUrl,
    async send(activity, sendOptions) {
      const res = await teams.send(messagesUrl, activity, sendOptions);
      const text = await res.text();
      return {
        status: res.status,
        answer: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      };
    },
    async waitFor(conversationId, accept, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = teams.inConversation(conversationId).find((a) => accept(shownText(a), a));
        if (found) return found;
        if (Date.now() > deadline) {
          const seen = teams.inConversation(conversationId).map((a) => shownText(a));
          throw new Error(`no such activity within ${timeoutMs} ms; saw:\n${seen.join('\n---\n')}`);
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async startReplica() {
      const replica = await startRelayService(env, serviceOptions, relay.databasePath);
      replicas.push(replica);
      return `${replica.service.url}/teams/messages`;
    },
    async close() {
      await Promise.all(replicas.map((r) => r.close()));
      await relay.close();
      await Promise.all([emulator.close(), teams.close()]);
    },
  };
}
