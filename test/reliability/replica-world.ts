/**
 * Several replicas of the service, each its own process (what `agent-relay start` runs, via
 * test/helpers/relay-process.ts), on ONE real PostgreSQL database, with the emulator as the Agent Run
 * Service and the fake Slack and GitHub APIs (behind gates) living in the test process so
 * they survive a replica's SIGKILL. Reads of the shared database go through `pg`.
 */
import pg from 'pg';
import type { Emulator, EmulatorTimings } from '../../src/emulator/index.js';
import type { FakeGitHub } from '../../src/fakes/github-rest-api.js';
import type { FakeSlackApi } from '../../src/fakes/slack-web-api.js';
import type { Child } from '../helpers/child-process.js';
import { relayEnv, startRelayFakes } from '../helpers/relay.js';
import { startRelayProcess } from '../helpers/relay-process.js';
import { worldReadings } from './world-readings.js';
import { startGate } from './gate-proxy.js';

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
   * SIGKILL a replica's process group. Platform calls are held at the gates for 300 ms first,
   * as crash-world.ts does, so the kill does not fall between a platform's answer and the
   * replica recording it (crash-mid-post.test.ts covers that window on its own); the other
   * replicas' calls held meanwhile go through after the kill.
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
  const fakes = await startRelayFakes({ timings });
  const { emulator, slack, github } = fakes;
  const slackGate = await startGate(slack.url);
  const githubGate = await startGate(github.url);
  const env = relayEnv(
    {
      databaseUrl,
      agentApiUrl: `${emulator.url}/api/v1`,
      slackApiUrl: slackGate.url,
      githubApiUrl: githubGate.url,
    },
    { POLL_INTERVAL_MS: String(POLL_INTERVAL_MS), LOG_LEVEL: 'info' },
  );
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
      const { child, url } = await startRelayProcess(env, {
        leaseMs: CLAIM_LEASE_MS,
        workerPollMs: 50,
        clockSkewMs: skews.get(name) ?? 0,
        startTimeoutMs: 30_000,
      });
      children.push(child);
      const replica = { name, url, child };
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
      // The killed replica's held calls end with its connections (the gate lets go of a call
      // whose caller hung up once its event loop has seen it); the others' go through: one
      // replica's crash is no platform outage for the rest (a failed `users.info` refuses,
      // for the moment, every trigger waiting on it: docs/security.md).
      await new Promise((resolve) => setTimeout(resolve, 100));
      for (const gate of [slackGate, githubGate]) gate.thaw();
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
      await fakes.close();
    },
  };
}
