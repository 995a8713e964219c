/**
 * A relay with Teams on (and nothing else), as production wires it (`startService` from a
 * config `loadConfig` parsed), on loopback and a temp SQLite file, pointed at the emulator and
 * the fake Bot Connector, which signs the activities it sends. The key source and the login
 * endpoint are the fake's, through the platforms' test-only overrides.
 */
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
import { startRelayService } from './relay.js';
import type { RelayService } from './relay.js';
import { WORLD_ENGINE_OPTIONS, pollFor, startWorldEmulator, worldEnv } from './platform-world.js';

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
  const emulator = await startWorldEmulator(options.timings);
  const teams = await startFakeTeams();
  const env = {
    ...worldEnv(emulator),
    TEAMS_APP_ID: FAKE_TEAMS_APP_ID,
    TEAMS_APP_PASSWORD: FAKE_TEAMS_APP_PASSWORD,
    TEAMS_TENANT_ID: FAKE_TEAMS_TENANT,
    TEAMS_ALLOWED_TENANTS: FAKE_TEAMS_TENANT,
    ...options.env,
  };
  const serviceOptions = {
    logger: logs.logger,
    engineOptions: WORLD_ENGINE_OPTIONS,
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
    waitFor: (conversationId, accept, timeoutMs = 10_000) =>
      pollFor(
        () => teams.inConversation(conversationId).find((a) => accept(shownText(a), a)),
        'activity',
        () => teams.inConversation(conversationId).map((a) => shownText(a)),
        timeoutMs,
      ),
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
