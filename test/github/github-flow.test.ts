/**
 * End to end on loopback: signed webhooks -> the real ingress (@octokit/webhooks
 * verification) -> the engine's sink (SQLite inbox) -> the engine -> the real agent client ->
 * the in-process emulator; and back: tracker -> outbox -> the GitHub notifier (Octokit) ->
 * the fake GitHub REST API, which records every comment, edit and reaction.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { serveOnLoopback } from '../helpers/loopback-server.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgentClient } from '../../src/agent/index.js';
import { systemClock, type Store } from '../../src/core/ports/index.js';
import { FAST_TIMINGS, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { createGitHubIngress } from '../../src/github/ingress/github-ingress.js';
import { testGitHubNotifier } from './test-notifier.js';
import { createOutboxRefusalSink } from '../../src/github/ingress/refusal.js';
import { createEngine, type Engine } from '../../src/runs/engine.js';
import { PULL_REQUEST_LOOKUP_MS } from '../../src/runs/use-cases/thread-context.js';
import { createInboxSink } from '../../src/service/inbox-sink.js';
import { openStore } from '../../src/store/index.js';
import { postGitHub } from '../helpers/github.js';
import { waitUntil } from '../helpers/wait-until.js';
import {
  startFakeGitHub,
  type FakeComment,
  type FakeGitHub,
} from '../../src/fakes/github-rest-api.js';
import { FIXTURE_EVENT, fixture, type Change, type FixtureName, type Payload } from './fixtures.js';
import { createRecordingLogger } from '../helpers/test-logger.js';
import { repetitions } from '../helpers/repetition.js';
import { PLATFORM_CAPABILITIES } from '../helpers/platform-capabilities.js';

interface Env {
  url: string;
  api: FakeGitHub;
  emulator: Emulator;
  store: Store;
  engine: Engine;
  close(): Promise<void>;
}

let env: Env;

async function startEnv(): Promise<Env> {
  const dir = mkdtempSync(join(tmpdir(), 'relay-github-flow-'));
  const emulator = await startEmulator({ timings: FAST_TIMINGS });
  const store = await openStore({ databaseUrl: `sqlite:${join(dir, 'relay.db')}` });
  const api = await startFakeGitHub({ token: 'ghp_flow' });
  api.setPullRequest('octo-org', 'widgets', 7, { head: 'fix/parser', base: 'main' });
  const logger = createRecordingLogger();
  const notifier = testGitHubNotifier(api.url, { kind: 'token', token: 'ghp_flow' }, { logger });
  let n = 0;
  const engine = createEngine({
    store,
    agent: createAgentClient({ baseUrl: emulator.baseUrl, apiKey: emulator.apiKey, maxRetries: 0 }),
    notifiers: { github: notifier },
    capabilities: PLATFORM_CAPABILITIES,
    clock: systemClock,
    random: { id: () => `req-${++n}`, float: () => 0.5 },
    logger,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 10))),
    options: {
      botHandle: 'agent-relay',
      commandWord: '/agent',
      pollIntervalMs: 40,
      trackerMode: 'batch',
      maxPromptChars: 8_000,
      workerPollMs: 20,
      maxCheckIntervalMs: 150,
      blockedCheckIntervalMs: 200,
      inboxRetryDelaysMs: [50, 50],
      outboxMaxAttempts: 3,
      drainMs: 2_000,
    },
  });
  const ingress = createGitHubIngress({
    secret: 'flow-secret',
    botHandle: 'agent-relay',
    triggerLabel: 'agent',
    allowedAssociations: ['OWNER', 'MEMBER', 'COLLABORATOR'],
    commandWord: '/agent',
    sink: createInboxSink({ store, clock: systemClock, onAccepted: () => engine.inbox.wake() }),
    refusals: createOutboxRefusalSink({ store, clock: systemClock }),
    logger,
    onInstallation: (owner, repo, id) => notifier.learnInstallation(owner, repo, id),
  });
  const server = await serveOnLoopback((req, res) => void ingress.handle(req, res));
  engine.start();
  return {
    url: `${server.url}/github/webhooks`,
    api,
    emulator,
    store,
    engine,
    async close() {
      await engine.stop();
      await server.close();
      await api.close();
      await emulator.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

beforeEach(async () => {
  env = await startEnv();
});
afterEach(async () => {
  await env.close();
});

let deliveries = 0;
async function deliver(name: FixtureName, change?: Change, deliveryId = `flow-${++deliveries}`) {
  const res = await postGitHub(env.url, JSON.stringify(fixture(name, change)), {
    event: FIXTURE_EVENT[name],
    deliveryId,
    secret: 'flow-secret',
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** A comment on issue #42 by alice (MEMBER) with this body and comment id. */
function comment(body: string, id: number) {
  return (p: Payload) => {
    p.comment.body = body;
    p.comment.id = id;
    p.comment.html_url = `https://github.com/octo-org/widgets/issues/42#issuecomment-${id}`;
  };
}

const onIssue = (n: number): FakeComment[] => env.api.commentsOn('octo-org', 'widgets', n);
const latest = (c: FakeComment | undefined): string => c?.edits.at(-1) ?? c?.body ?? '';

async function outcomeComment(n: number, text: string): Promise<FakeComment> {
  return waitUntil(() => onIssue(n).find((c) => c.body.includes(text)), {
    timeoutMs: 8_000,
    message: `a comment on #${n} containing ${JSON.stringify(text)}`,
  });
}

describe('GitHub end to end', () => {
  it('mention on an issue -> 👀 -> status comment edited through states -> final comment + 🚀', async () => {
    expect(await deliver('issue-comment-created')).toEqual({
      status: 202,
      json: { ok: true, result: 'accepted' },
    });
    await waitUntil(() =>
      env.api.reactions.some(
        (r) => r.target === 'issue_comment' && r.id === 1001 && r.content === 'eyes',
      ),
    );

    const outcome = await outcomeComment(42, 'succeeded');
    expect(outcome.body.startsWith('@alice ✅ Run succeeded')).toBe(true);
    const [status] = onIssue(42);
    expect(status).not.toBe(outcome);
    // Created once, then edited in place: never a second status comment.
    expect(onIssue(42).filter((c) => c.body.includes('| Run |'))).toHaveLength(1);
    const run = env.emulator.runs.all()[0]!;
    expect(status?.body).toContain(run.run_id);
    await waitUntil(() => latest(status).includes('✅ Succeeded'), {
      message: 'final status edit',
    });
    const headings = [status!.firstBody, ...status!.edits].map((b) => b.split('\n')[0]);
    expect(headings.at(-1)).toMatch(/^✅ \*\*agent-relay\*\* finished/);
    expect(headings.some((h) => /^(⏳|🛫|🏃) \*\*agent-relay\*\* (queued|is)/.test(h ?? ''))).toBe(
      true,
    );
    await waitUntil(() => env.api.reactions.some((r) => r.id === 1001 && r.content === 'rocket'));

    // The run got the issue as context and the relay's stamp.
    expect(run.prompt).toContain('please fix the flaky test');
    expect(run.prompt).toContain('Flaky parser test');
    expect(run.metadata).toMatchObject({
      relay_thread: 'github:octo-org/widgets#42',
      relay_platform: 'github',
    });

    // Our own status comment coming back as a webhook starts nothing.
    expect((await deliver('issue-comment-bot')).json.result).toBe('ignored');
    expect(env.emulator.runs.count()).toBe(1);
  });

  it('review comment -> run with path, line and diff hunk; replies in the review thread', async () => {
    expect((await deliver('review-comment-created')).status).toBe(202);
    await waitUntil(() =>
      env.api.reactions.some((r) => r.target === 'review_comment' && r.id === 2001),
    );
    const reply = await waitUntil(() =>
      [...env.api.comments.values()].find(
        (c) => c.kind === 'review' && c.body.includes('succeeded'),
      ),
    );
    expect(reply.inReplyTo).toBe(2001);
    const status = [...env.api.comments.values()].find(
      (c) => c.kind === 'review' && c.body.includes('| Run |'),
    );
    expect(status?.inReplyTo).toBe(2001);
    await waitUntil(() => (status?.edits.length ?? 0) > 0, { message: 'status reply edited' });
    expect(env.api.comments.size).toBe(2); // no issue-level comments
    const run = env.emulator.runs.all()[0]!;
    expect(run.prompt).toContain('src/parser.ts line 13');
    expect(run.prompt).toContain('@@ -10,6 +10,8 @@');
    expect(run.prompt).toContain('Branches: fix/parser -> main');
  });

  it('a comment on a PR is acknowledged without waiting for GitHub; the run still gets the branches', async () => {
    // GitHub answers the pull request lookup only after 1.5 s: the acknowledgement must not
    // wait for it (the webhook carries no branches; the use case looks them up).
    env.api.delay({ method: 'GET', path: /\/pulls\/7$/, ms: 1_500 });
    const started = performance.now();
    const ack = await deliver('issue-comment-on-pr');
    const ackMs = performance.now() - started;
    expect(ack).toEqual({ status: 202, json: { ok: true, result: 'accepted' } });
    expect(ackMs).toBeLessThan(1_000);

    const run = await waitUntil(() => env.emulator.runs.all()[0], {
      timeoutMs: 8_000,
      message: 'the run for the PR comment',
    });
    expect(env.api.requests.some((r) => r.path === '/repos/octo-org/widgets/pulls/7')).toBe(true);
    expect(run.prompt).toContain('Branches: fix/parser -> main');
    expect(run.prompt).toContain('add tests for nested quotes');
  });

  it('a PR lookup that hangs holds neither the acknowledgement nor the run for long', async () => {
    env.api.delay({ method: 'GET', path: /\/pulls\/7$/, ms: 60_000 });
    const started = performance.now();
    expect((await deliver('issue-comment-on-pr')).status).toBe(202);
    expect(performance.now() - started).toBeLessThan(1_000);
    // The use case gives up on the branches after its bound and starts the run without them.
    const run = await waitUntil(() => env.emulator.runs.all()[0], {
      timeoutMs: PULL_REQUEST_LOOKUP_MS + 5_000,
      message: 'the run for the PR comment',
    });
    expect(run.prompt).toContain('add tests for nested quotes');
    expect(run.prompt).not.toContain('Branches:');
  });

  it('a follow-up comment reaches the service', async () => {
    await deliver(
      'issue-comment-created',
      comment('@agent-relay ask me which branch [block]', 3001),
    );
    await outcomeComment(42, 'waiting for your input');
    const runId = env.emulator.runs.all()[0]!.run_id;
    expect(
      (await deliver('issue-comment-created', comment('@agent-relay target main', 3002))).status,
    ).toBe(202);
    await waitUntil(() => env.emulator.followups.find((f) => f.runId === runId), {
      message: 'follow-up recorded',
    });
    expect(env.emulator.followups[0]?.message).toContain('target main');
    expect(env.emulator.runs.count()).toBe(1);
  });

  it('/agent cancel cancels the running run', async () => {
    await deliver('issue-comment-created', comment('@agent-relay long job [slow]', 4001));
    const run = await waitUntil(
      () => env.emulator.runs.all().find((r) => r.state === 'INPROGRESS'),
      { timeoutMs: 5_000 },
    );
    expect((await deliver('issue-comment-created', comment('/agent cancel', 4002))).status).toBe(
      202,
    );
    await waitUntil(() => env.emulator.runs.get(run.run_id)?.state === 'CANCELLED', {
      message: 'cancelled',
    });
    await outcomeComment(42, 'was cancelled');
  });

  it('label trigger: the title and body become the prompt (a title saying "Cancel" included)', async () => {
    expect((await deliver('issues-labeled-agent')).status).toBe(202);
    await waitUntil(() =>
      env.api.reactions.some((r) => r.target === 'issue' && r.id === 44 && r.content === 'eyes'),
    );
    await outcomeComment(44, 'succeeded');
    const run = env.emulator.runs.all()[0]!;
    expect(run.prompt).toContain('Cancel button does nothing');
    expect(run.prompt).toContain('Clicking Cancel on the dialog leaves it open.');
  });

  it('factory:<alias> label dispatches to that factory', async () => {
    expect((await deliver('issues-labeled-factory')).status).toBe(202);
    await waitUntil(() => env.emulator.requests.get('POST /factory/:uid/runs') === 1, {
      message: 'dispatched',
    });
    const status = await waitUntil(() => onIssue(45).find((c) => c.body.includes('| Run |')));
    // Posted as "Starting…" (naming the alias), then edited to the dispatched run.
    await waitUntil(() => latest(status).includes('Docs Factory'), { message: 'edited' });
    expect(env.emulator.runs.all()[0]?.prompt).toContain('Document the exporter');
  });

  it('the same delivery twice -> one run', async () => {
    const first = await deliver('issue-comment-created', undefined, 'dup-1');
    const second = await deliver('issue-comment-created', undefined, 'dup-1');
    expect([first.status, second.status]).toEqual([202, 200]);
    await outcomeComment(42, 'succeeded');
    expect(env.emulator.runs.count()).toBe(1);
  });

  it('an outsider gets one polite refusal and no run', async () => {
    const outsider = (p: Payload) => {
      p.comment.user = { login: 'mallory', type: 'User' };
      p.comment.author_association = 'NONE';
    };
    expect((await deliver('issue-comment-created', outsider)).json.result).toBe('refused');
    const refusal = await outcomeComment(42, 'only by the repository owner');
    expect(refusal.body.startsWith('ℹ️ @mallory')).toBe(true);
    expect(env.emulator.runs.count()).toBe(0);
    expect(env.emulator.requests.total()).toBe(0);
  });
});

describe('GitHub conversations say each thing once', () => {
  const bot = (n: number) => onIssue(n).filter((c) => c.author.endsWith('[bot]'));
  const expectSaidOnce = (n: number) => {
    const runs = env.emulator.runs.all();
    const found = repetitions(
      bot(n).map((c, i) => ({ label: `comment ${i}`, text: c.body })),
      { titles: runs.map((r) => r.title), runIds: runs.map((r) => r.run_id) },
    );
    expect(found).toEqual([]);
  };

  it('a request that waits for input, then a follow-up that succeeds: one card, one line per outcome', async () => {
    await deliver(
      'issue-comment-created',
      comment('@agent-relay ask me which branch [block]', 9101),
    );
    const asked = await outcomeComment(42, 'waiting for your input');
    const card = bot(42)[0]!;
    expect(card.body).toContain('| Run |');
    await waitUntil(() => latest(card).includes('which approach should it take'));
    // The line links the card and the request it answers; the card holds the question.
    expect(asked.body).toContain(`issuecomment-${card.id})`);
    expect(asked.body).toContain('issuecomment-9101)');
    expect(asked.body).not.toContain('which approach should it take');
    // The line carries the agent's own question, as the agent asked it.
    expect(asked.body).toContain('Should I keep the old function');

    await deliver('issue-comment-created', comment('@agent-relay target main', 9102));
    const done = await outcomeComment(42, 'Run succeeded');
    expect(done.body).toContain('issuecomment-9102');
    expect(done.body).toContain('the pull request now also covers **src/util.ts**');
    // One request and one follow-up: the card, one line for each outcome (with the agent's
    // words), and the follow-up's acknowledgement of where it went; nothing more.
    expect(bot(42)).toHaveLength(4);
    expect(bot(42).filter((c) => c.body.includes('resumed the run'))).toHaveLength(1);
    for (const line of [asked, done]) {
      const shown = line.body.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('<!--'));
      // The outcome line, then the agent's final message (one paragraph here).
      expect(shown, line.body).toHaveLength(2);
    }
    expectSaidOnce(42);
  });

  it('a failure, said once', async () => {
    await deliver('issue-comment-created', comment('@agent-relay fix it [fail]', 9201));
    await outcomeComment(42, 'Run failed');
    expect(bot(42)).toHaveLength(2);
    expectSaidOnce(42);
  });

  it('a cancelled run, said once', async () => {
    await deliver('issue-comment-created', comment('@agent-relay long job [slow]', 9202));
    const run = await waitUntil(
      () => env.emulator.runs.all().find((r) => r.state === 'INPROGRESS'),
      { timeoutMs: 5_000 },
    );
    await deliver('issue-comment-created', comment(`/agent cancel ${run.run_id}`, 9203));
    await outcomeComment(42, 'Run was cancelled');
    // The cancel command is answered by the card and the line, not by a third comment.
    await waitUntil(() => latest(bot(42)[0]).includes('Cancelled'));
    expectSaidOnce(42);
  });
});
