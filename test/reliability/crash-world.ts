/**
 * Everything around the crash test's child process, living in the test process so that it
 * survives the kills: the emulator, the fake Slack and GitHub APIs behind gates, the child's
 * lifecycle (start, SIGKILL of its whole process group, SIGTERM), its logs, and reads of the
 * SQLite file between runs.
 */
import BetterSqlite3 from 'better-sqlite3';
import type { Emulator, EmulatorTimings } from '../../src/emulator/index.js';
import type { FakeGitHub } from '../../src/fakes/github-rest-api.js';
import type { FakeSlackApi } from '../../src/fakes/slack-web-api.js';
import type { Child } from '../helpers/child-process.js';
import { relayEnv, startRelayFakes } from '../helpers/relay.js';
import { startRelayProcess } from '../helpers/relay-process.js';
import { crashSummary, crashTrace } from './crash-diagnostics.js';
import { startGate } from './gate-proxy.js';
import { worldReadings } from './world-readings.js';

export const LEASE_MS = 1_500;

export interface CrashWorld {
  emulator: Emulator;
  slack: FakeSlackApi;
  github: FakeGitHub;
  /** The running child's URL. */
  url(): string;
  start(): Promise<void>;
  /**
   * SIGKILL the child's process group and wait until it is gone. Deliveries to Slack and
   * GitHub are held for 300 ms first (they are pending, not lost), so the kill does not fall
   * between a platform's answer and the relay recording it (that window has its own test,
   * crash-mid-post.test.ts, with `killAnywhere`). Every held request and answer is dropped.
   */
  kill(): Promise<void>;
  /** SIGKILL at once, whatever is in flight. */
  killAnywhere(): Promise<void>;
  /** SIGTERM (graceful) and wait. */
  stop(): Promise<void>;
  /** Hold requests to Slack and GitHub before they arrive. */
  freeze(): void;
  /** Let creates reach the Agent Run Service but hold its answers to them. */
  freezeAgentAnswers(): void;
  /** Let posts reach Slack and GitHub but hold their answers. */
  freezePlatformAnswers(): void;
  thaw(): void;
  db(): { inboxOpen: number; outboxPending: number; runs: number; requestIds: string[] };
  /** Texts of the outcome messages delivered (Slack replies and GitHub comments). */
  outcomes(): string[];
  /** Texts of the status messages as first posted (one per post). */
  statusPosts(): string[];
  /** The current text of every status message. */
  finalStatuses(): string[];
  countPerToken(texts: string[]): Record<string, number>;
  /** What is where (for failure messages). */
  summary(): string;
  /** Every platform call and outbox row about one token's thread (for failure messages). */
  trace(token: string): string;
  logText(): string;
  logLines(): number;
  close(): Promise<void>;
}

export async function startCrashWorld(
  databasePath: string,
  timings: Partial<EmulatorTimings> = {},
): Promise<CrashWorld> {
  const fakes = await startRelayFakes({
    // Runs stay live ~3.3 s: longer than a restart plus a lease, so a run found by
    // reconciliation is still live when it is recorded (a run that ended before it was
    // recorded gets its outcome too: crash-restart-reconcile.test.ts).
    timings: {
      queuedMs: 100,
      pendingMs: 100,
      claimedMs: 100,
      runMs: 3_000,
      slowRunMs: 6_000,
      ...timings,
    },
  });
  const { emulator, slack, github } = fakes;
  const slackGate = await startGate(slack.url);
  const githubGate = await startGate(github.url);
  const agentGate = await startGate(emulator.url);
  const env = relayEnv({
    databaseUrl: databasePath,
    agentApiUrl: `${agentGate.url}/api/v1`,
    slackApiUrl: slackGate.url,
    githubApiUrl: githubGate.url,
  });
  const children: Child[] = [];
  let current: { child: Child; url: string } | undefined;
  /** Kill the relay at once; what the gates held is dropped (never delivered), and they open. */
  const killAndOpen = async (child: Child) => {
    child.signalGroup('SIGKILL');
    await child.exited;
    for (const gate of [slackGate, githubGate, agentGate]) {
      gate.dropHeld();
      gate.thaw();
    }
  };

  const world: CrashWorld = {
    emulator,
    slack,
    github,
    url: () => current?.url ?? 'http://127.0.0.1:9',
    async start() {
      const started = await startRelayProcess(env, { leaseMs: LEASE_MS });
      children.push(started.child);
      current = started;
    },
    async kill() {
      const c = current;
      current = undefined;
      if (!c) return;
      // Hold new deliveries at the platforms' doors and let answered ones be recorded, so the
      // kill never falls between a platform's answer and the relay recording it.
      slackGate.freeze();
      githubGate.freeze();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await killAndOpen(c.child);
    },
    async killAnywhere() {
      const c = current;
      current = undefined;
      if (!c) return;
      await killAndOpen(c.child);
    },
    async stop() {
      const c = current;
      current = undefined;
      if (!c) return;
      c.child.signalGroup('SIGTERM');
      await c.child.exited;
    },
    freeze() {
      slackGate.freeze();
      githubGate.freeze();
    },
    freezePlatformAnswers() {
      slackGate.freezeAnswers(
        (method, path) => method === 'POST' && path.endsWith('chat.postMessage'),
      );
      githubGate.freezeAnswers((method, path) => method === 'POST' && path.endsWith('/comments'));
    },
    freezeAgentAnswers: () =>
      agentGate.freezeAnswers((method, path) => method === 'POST' && /\/agent\/runs?$/.test(path)),
    thaw() {
      slackGate.thaw();
      githubGate.thaw();
      agentGate.thaw();
    },
    db() {
      const db = new BetterSqlite3(databasePath, { readonly: true, timeout: 5_000 });
      try {
        const n = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
        return {
          inboxOpen: n(`select count(*) as n from inbox where status in ('pending', 'processing')`),
          outboxPending: n(`select count(*) as n from outbox where status = 'pending'`),
          runs: n('select count(*) as n from runs'),
          requestIds: (
            db.prepare('select request_id from runs').all() as { request_id: string }[]
          ).map((r) => r.request_id),
        };
      } finally {
        db.close();
      }
    },
    ...worldReadings(slack, github),
    summary: () => crashSummary(world, databasePath),
    trace: (token) => crashTrace(world, databasePath, token, children),
    logText: () => children.map((c) => c.stdout() + c.stderr()).join('\n'),
    logLines: () => children.reduce((n, c) => n + c.lines.length, 0),
    async close() {
      for (const c of children) c.signalGroup('SIGKILL');
      await Promise.all(children.map((c) => c.exited));
      await Promise.all([slackGate.close(), githubGate.close(), agentGate.close()]);
      await fakes.close();
    },
  };
  return world;
}
