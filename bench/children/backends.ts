/**
 * The backends process: the Agent Run Service emulator, the fake Slack Web API (the one the
 * demo and the tests use, which records receipt times) and the GitHub recorder, driven over
 * IPC by the bench.
 * It also makes the tracked runs change state at random times (a Poisson process).
 */
import { randomUUID } from 'node:crypto';
import { encodeThreadKey } from '../../src/core/thread-key.js';
import { DEFAULT_TIMINGS, startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { startFakeSlackApi } from '../../src/fakes/slack-web-api.js';
import type { FakeSlackApi } from '../../src/fakes/slack-web-api.js';
import { createPrng, exponentialGap } from '../lib/prng.js';
import { serveRpc } from '../lib/rpc.js';
import type { BackendsApi, SeededRun, StateChange } from './backends-api.js';
import { startGitHubRecorder } from './github-recorder.js';
import type { GitHubRecorder } from './github-recorder.js';
import { matchReceipts } from './match-receipts.js';
import { startDelayProxy } from './delay-proxy.js';
import type { DelayProxy } from './delay-proxy.js';
import type { Receipt } from './match-receipts.js';

/** A tracked run's life while it stays tracked: live states, then BLOCKED <-> INPROGRESS. */
const NEXT_STATE: Record<string, string> = {
  QUEUED: 'PENDING',
  PENDING: 'CLAIMED',
  CLAIMED: 'INPROGRESS',
  INPROGRESS: 'BLOCKED',
  BLOCKED: 'INPROGRESS',
};
const SEED_STATES = ['QUEUED', 'PENDING', 'CLAIMED', 'INPROGRESS'];

interface Backends {
  emulator: Emulator;
  proxy?: DelayProxy;
  slack: FakeSlackApi;
  github: GitHubRecorder;
  seeded: SeededRun[];
  changes: StateChange[];
  timer?: NodeJS.Timeout;
}

let current: Backends | undefined;

function need(): Backends {
  if (!current) throw new Error('backends not started');
  return current;
}

async function closeAll(): Promise<void> {
  const b = current;
  current = undefined;
  if (!b) return;
  clearTimeout(b.timer);
  await Promise.all([b.emulator.close(), b.slack.close(), b.github.close(), b.proxy?.close()]);
}

function seedOne(b: Backends, i: number, platform: SeededRun['platform'], state: string) {
  const title = `Bench run ${i + 1}`;
  let threadKey: string;
  let statusRefId: string;
  if (platform === 'slack') {
    const threadTs = `${1_710_000_000 + i}.000100`;
    const channel = 'CBENCH01';
    threadKey = encodeThreadKey({
      platform: 'slack',
      team: b.slack.identity.team_id,
      channel,
      threadTs,
    });
    const ts = b.slack.seedMessage({
      channel,
      text: title,
      thread_ts: threadTs,
      ts: `${1_710_000_000 + i}.000200`,
      user: b.slack.identity.user_id,
    });
    statusRefId = `${channel}:${ts}`;
  } else {
    threadKey = encodeThreadKey({
      platform: 'github',
      owner: 'bench-org',
      repo: 'widgets',
      number: i + 1,
    });
    statusRefId = `issue:${b.github.seedComment()}`;
  }
  const item = b.emulator.createRunDirect(
    {
      prompt: `Benchmark prompt ${i + 1}`,
      title,
      metadata: { relay_thread: threadKey, relay_platform: platform, relay_request: randomUUID() },
    },
    { state, manual: true },
  );
  return { item, threadKey, statusRefId, title };
}

const handlers: BackendsApi = {
  async start({ timings, createLatencyMs }) {
    await closeAll();
    const [emulator, slack, github] = await Promise.all([
      startEmulator({ apiKey: randomUUID(), timings: { ...DEFAULT_TIMINGS, ...timings } }),
      startFakeSlackApi(),
      startGitHubRecorder(),
    ]);
    const proxy =
      createLatencyMs === undefined
        ? undefined
        : await startDelayProxy({
            target: emulator.baseUrl,
            delayMs: createLatencyMs,
            delayed: (method, path) => method === 'POST' && /\/agent\/runs?$/.test(path),
          });
    current = { emulator, slack, github, seeded: [], changes: [], ...(proxy ? { proxy } : {}) };
    return {
      agentBaseUrl: proxy?.url ?? emulator.baseUrl,
      agentKey: emulator.apiKey,
      slackApiUrl: slack.url,
      githubApiUrl: github.url,
      slackBotUserId: slack.identity.user_id,
      slackTeamId: slack.identity.team_id,
    };
  },

  async seedTracked({ n, githubShare, seed }) {
    const b = need();
    const random = createPrng(seed);
    for (let i = 0; i < n; i++) {
      const platform = random() < githubShare ? 'github' : 'slack';
      const state = SEED_STATES[Math.floor(random() * SEED_STATES.length)] ?? 'INPROGRESS';
      const { item, threadKey, statusRefId, title } = seedOne(b, i, platform, state);
      b.seeded.push({
        runId: item.run_id,
        threadKey,
        platform,
        title,
        state: item.state,
        updatedAt: item.updated_at,
        createdAt: Date.parse(item.created_at),
        statusRefId,
      });
    }
    return b.seeded;
  },

  async startChanges({ perRunMeanIntervalMs, seed }) {
    const b = need();
    const random = createPrng(seed);
    const meanGap = perRunMeanIntervalMs / Math.max(1, b.seeded.length);
    const step = () => {
      const run = b.seeded[Math.floor(random() * b.seeded.length)];
      if (run) {
        const from = b.emulator.runs.get(run.runId)?.state ?? 'INPROGRESS';
        const to = NEXT_STATE[from] ?? 'INPROGRESS';
        b.emulator.setState(run.runId, to);
        const at = b.emulator.history(run.runId).at(-1)?.at ?? Date.now();
        b.changes.push({ runId: run.runId, state: to, at });
      }
      b.timer = setTimeout(step, exponentialGap(meanGap, random));
    };
    b.timer = setTimeout(step, exponentialGap(meanGap, random));
    return null;
  },

  async stopChanges() {
    const b = need();
    clearTimeout(b.timer);
    b.timer = undefined;
    return b.changes.splice(0);
  },

  async trackingDelays({ changes }) {
    const b = need();
    const receipts: Receipt[] = [];
    for (const call of b.slack.calls) {
      if (call.method !== 'chat.update') continue;
      const p = call.params as { channel?: string; ts?: string; text?: string };
      receipts.push({ refId: `${p.channel}:${p.ts}`, at: call.at, text: p.text ?? '' });
    }
    for (const r of b.github.receipts) {
      if (r.method === 'PATCH')
        receipts.push({ refId: `issue:${r.commentId}`, at: r.at, text: r.body ?? '' });
    }
    return matchReceipts({ runs: b.seeded, changes, receipts });
  },

  async agentRequests({ reset }) {
    const b = need();
    const snapshot = b.emulator.requests.snapshot();
    if (reset) b.emulator.requests.reset();
    return snapshot;
  },

  async firstPosts() {
    const b = need();
    const slack = new Map<string, number>();
    for (const call of b.slack.calls) {
      const threadTs = (call.params as { thread_ts?: unknown }).thread_ts;
      if (call.method !== 'chat.postMessage' || typeof threadTs !== 'string') continue;
      if (!slack.has(threadTs)) slack.set(threadTs, call.at);
    }
    const github = new Map<string, number>();
    for (const r of b.github.receipts) {
      if (r.method === 'POST' && r.issue && !github.has(r.issue)) github.set(r.issue, r.at);
    }
    return { slack: [...slack], github: [...github] };
  },

  async firstSigns() {
    const b = need();
    const seen = new Map<string, number>();
    const firstPost = new Map<string, number>();
    for (const call of b.slack.calls) {
      const p = call.params as { timestamp?: unknown; name?: unknown; thread_ts?: unknown };
      if (call.method === 'reactions.add' && p.name === 'eyes' && typeof p.timestamp === 'string') {
        if (!seen.has(p.timestamp)) seen.set(p.timestamp, call.at);
      }
      if (call.method === 'chat.postMessage' && typeof p.thread_ts === 'string') {
        if (!firstPost.has(p.thread_ts)) firstPost.set(p.thread_ts, call.at);
      }
    }
    const created: [string, number][] = [];
    for (const run of b.emulator.runs.all()) {
      const thread = run.metadata?.relay_thread;
      if (typeof thread !== 'string') continue;
      created.push([thread.slice(thread.lastIndexOf(':') + 1), Date.parse(run.created_at)]);
    }
    return { seen: [...seen], firstPost: [...firstPost], created };
  },

  async outsideCalls() {
    const b = need();
    const counts: Record<string, number> = {};
    for (const call of b.slack.calls) {
      const kind = `slack ${call.method}`;
      counts[kind] = (counts[kind] ?? 0) + 1;
    }
    for (const [route, n] of Object.entries(b.emulator.requests.snapshot())) {
      counts[`service ${route}`] = n;
    }
    return counts;
  },

  async close() {
    await closeAll();
    return null;
  },
};

serveRpc(handlers);
process.on('disconnect', () => {
  void closeAll().finally(() => process.exit(0));
});
