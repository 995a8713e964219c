/**
 * Several replicas of the service, each its own process (what `agent-relay start` runs, via
 * crash-child.ts), on ONE real PostgreSQL database, with the emulator as the Agent Run
 * Service and the fake Slack and GitHub APIs (behind gates) living in the test process so
 * they survive a replica's SIGKILL. Reads of the shared database go through `pg`.
 */
import pg from 'pg';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator, EmulatorTimings } from '../../src/emulator/index.js';
import { startFakeGitHub } from '../../src/fakes/github-rest-api.js';
import type { FakeGitHub } from '../../src/fakes/github-rest-api.js';
import { startFakeSlackApi } from '../../src/fakes/slack-web-api.js';
import type { FakeSlackApi } from '../../src/fakes/slack-web-api.js';
import { cleanEnv, startChild } from '../runtime/child-process.js';
import type { Child } from '../runtime/child-process.js';
import { worldReadings } from './world-readings.js';
import { startGate } from './gate-proxy.js';
import { INSTALLATION_ID } from './relay-harness.js';
import { GITHUB_APP_ID, GITHUB_PUBLIC_KEY, SECRETS } from './secrets.js';

/**
 * Inbox/outbox claim lease of the replicas: short, so a killed one's claims come back within
 * the test's time (the default is 120 s), yet longer than a trigger takes to handle on a
 * loaded machine (a claim that runs out while its create is in flight is claimed again).
 */
export const CLAIM_LEASE_MS = 5_000;
/** The tracker's poll interval; the tracking lease lasts max(4 of these, 3 s). */
export const POLL_INTERVAL_MS = 200;

export interface Replica {
  name: string;
  url: string;
  child: Child;
}

export interface ReplicaWorld {
  emulator: Emulator;
  slack: FakeSlackApi;
  github: FakeGitHub;
  replicas: Map<string, Replica>;
  /**
   * Start a replica process named `name` and wait until it listens; `clockSkewMs` makes its
   * clock run that far ahead of the others' (kept for a restart under the same name).
   */
  start(name: string, options?: { clockSkewMs?: number }): Promise<Replica>;
  /**
   * SIGKILL a replica's process group. Platform deliveries are held at the gates for 300 ms
   * first, as crash-world.ts does, so the kill does not fall between a platform's answer and
   * the replica recording it (crash-mid-post.test.ts covers that window on its own).
   */
  kill(name: string): Promise<void>;
  /** Which replica's process holds the tracking lease now (by its log), if any. */
  trackingHolder(): Promise<string | undefined>;
  query<T extends Record<string, unknown>>(sql: string): Promise<T[]>;
  outcomes(): string[];
  statusPosts(): string[];
  /** The current text of every status message (Slack messages, GitHub status comments). */
  finalStatuses(): string[];
  countPerToken(texts: string[]): Record<string, number>;
  logText(): string;
  close(): Promise<void>;
}

export async function startReplicaWorld(
  databaseUrl: string,
  timings: Partial<EmulatorTimings>,
): Promise<ReplicaWorld> {
  const emulator = await startEmulator({ apiKey: SECRETS.agentApiKey, timings, tickMs: 10 });
  const slack = await startFakeSlackApi();
  const github = await startFakeGitHub({
    app: { appId: GITHUB_APP_ID, publicKey: GITHUB_PUBLIC_KEY },
  });
  github.setInstallation('octo-org', 'widgets', INSTALLATION_ID);
  const slackGate = await startGate(slack.url);
  const githubGate = await startGate(github.url);
  const env = cleanEnv({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    AGENT_API_URL: `${emulator.url}/api/v1`,
    AGENT_API_KEY: SECRETS.agentApiKey,
    POLL_INTERVAL_MS: String(POLL_INTERVAL_MS),
    SHUTDOWN_TIMEOUT_MS: '2000',
    SLACK_SIGNING_SECRET: SECRETS.slackSigningSecret,
    SLACK_BOT_TOKEN: SECRETS.slackBotToken,
    SLACK_API_URL: slackGate.url,
    GITHUB_WEBHOOK_SECRET: SECRETS.githubWebhookSecret,
    GITHUB_APP_ID: String(GITHUB_APP_ID),
    GITHUB_PRIVATE_KEY: SECRETS.githubPrivateKey,
    GITHUB_API_URL: githubGate.url,
    LOG_LEVEL: 'info',
  });
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const children: Child[] = [];
  const replicas = new Map<string, Replica>();
  const skews = new Map<string, number>();

  return {
    emulator,
    slack,
    github,
    replicas,
    async start(name, options) {
      if (options?.clockSkewMs !== undefined) skews.set(name, options.clockSkewMs);
      const skew = String(skews.get(name) ?? 0);
      const child = startChild(
        process.execPath,
        ['--import', 'tsx', 'test/reliability/crash-child.ts', String(CLAIM_LEASE_MS), '50', skew],
        env,
      );
      children.push(child);
      const line = await child.waitForLine(
        (l) => typeof l.url === 'string' && String(l.msg).includes('listening'),
        30_000,
      );
      const replica = { name, url: String(line.url), child };
      replicas.set(name, replica);
      return replica;
    },
    async kill(name) {
      const replica = replicas.get(name);
      if (!replica) return;
      replicas.delete(name);
      slackGate.freeze();
      githubGate.freeze();
      await new Promise((resolve) => setTimeout(resolve, 300));
      replica.child.signalGroup('SIGKILL');
      await replica.child.exited;
      for (const gate of [slackGate, githubGate]) {
        gate.dropHeld();
        gate.thaw();
      }
    },
    async trackingHolder() {
      const now = Date.now();
      const rows = await pool.query<{ holder: string }>(
        'select holder from leases where name = $1 and lease_until > $2',
        ['tracker', now],
      );
      const holder = rows.rows[0]?.holder;
      if (holder === undefined) return undefined;
      for (const replica of replicas.values()) {
        const taken = replica.child.lines.some(
          (l) => l.msg === 'tracking lease taken' && l.holder === holder,
        );
        if (taken) return replica.name;
      }
      return undefined;
    },
    async query(sql) {
      return (await pool.query(sql)).rows;
    },
    ...worldReadings(slack, github),
    logText: () => children.map((c) => c.stdout() + c.stderr()).join('\n'),
    async close() {
      for (const c of children) c.signalGroup('SIGKILL');
      await Promise.all(children.map((c) => c.exited));
      await pool.end();
      await Promise.all([slackGate.close(), githubGate.close()]);
      await Promise.all([emulator.close(), slack.close(), github.close()]);
    },
  };
}
