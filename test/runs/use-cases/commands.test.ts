import { describe, expect, it } from 'vitest';
import { shortRunId } from '../../../src/core/message/short-run-id.js';
import type { MessageModel } from '../../../src/core/message/message-model.js';
import {
  flushOutbox,
  githubComment,
  handle,
  slackMention,
  slackReply,
  testEnvPerTest,
} from '../fixtures.js';

const env = testEnvPerTest({
  emulator: {
    factories: [
      { uid: 'f-docs', name: 'Docs Factory', alias: 'docs' },
      { uid: 'f-docs2', name: 'Docs Two', alias: 'docs-two' },
      { uid: 'f-a', name: 'Twin A', alias: 'twin' },
      { uid: 'f-b', name: 'Twin B', alias: 'TWIN' },
    ],
  },
});

/** A mention in channel C1 by alice, an admin of the workspace. */
const byAdmin = (text: string) =>
  handle(env, slackMention({ text, actor: { id: 'U1', name: 'alice', admin: true } }));

function as<T extends MessageModel['type']>(
  m: MessageModel | undefined,
  type: T,
): Extract<MessageModel, { type: T }> {
  if (m?.type !== type) throw new Error(`expected a ${type} message, got ${m?.type ?? 'none'}`);
  return m as Extract<MessageModel, { type: T }>;
}

/** Each message posted, as it reads now (a "Starting…" message edited to what followed). */
async function replies(): Promise<MessageModel[]> {
  await flushOutbox(env);
  return env.slack.posts.map((p) => env.slack.historyOf(p.ref).at(-1) ?? p.message);
}

describe('status', () => {
  it('answers briefly about the current run, or the named run; one status message', async () => {
    const first = slackMention({ text: 'first task' });
    await handle(env, first);
    const runId = (await env.store.threads.get(first.threadKey))!.currentRunId!;
    await handle(env, slackReply(first.threadKey, { text: 'status' }));
    await handle(env, slackMention({ text: `status ${runId}` }));
    const all = await replies();
    // The run's own status message only; each status answer is a brief, private one.
    expect(all.filter((m) => m.type === 'run_status')).toHaveLength(1);
    const briefs = env.slack.posts.filter((p) => p.message.type === 'run_brief');
    expect(briefs).toHaveLength(2);
    expect(briefs.every((p) => p.to.privateTo === 'U1')).toBe(true);
    expect(briefs[1]!.message).toMatchObject({ run: { runId, requester: { id: 'U1' } } });
  });

  it('a short run id, as cards and lists show it, names the run (as git does)', async () => {
    const first = slackMention({ text: 'first task' });
    await handle(env, first);
    const runId = (await env.store.threads.get(first.threadKey))!.currentRunId!;
    await handle(env, slackMention({ text: `status ${shortRunId(runId)}` }));
    await flushOutbox(env);
    const brief = env.slack.posts.find((p) => p.message.type === 'run_brief');
    expect(brief?.message).toMatchObject({ run: { runId } });
    expect(shortRunId(runId)).toHaveLength(8);
  });

  it('an unknown run id is said in plain words', async () => {
    await handle(env, slackMention({ text: 'status run-does-not-exist' }));
    const [notice] = await replies();
    expect(notice).toMatchObject({ type: 'notice', tone: 'error' });
  });
});

describe('list', () => {
  it('lists recent runs with filters, at most ten', async () => {
    // Runs started from this channel (by another replica: only their stamp says so).
    const metadata = { relay_thread: 'slack:T1:C1:1700000000.000001' };
    env.emulator.seedRuns(12, { state: 'SUCCEEDED', manual: true, metadata });
    env.emulator.seedRuns(2, { state: 'FAILED', manual: true, metadata });
    await handle(env, slackMention({ text: 'list state=SUCCEEDED' }));
    const [list] = await replies();
    expect(list).toMatchObject({
      type: 'run_list',
      filters: { state: ['SUCCEEDED'] },
      truncated: true,
    });
    expect(as(list, 'run_list').runs).toHaveLength(10);
    expect(as(list, 'run_list').runs.every((r) => r.state.name === 'SUCCEEDED')).toBe(true);
  });

  it('`mine` keeps the runs this person started', async () => {
    env.emulator.seedRuns(5, { manual: true, state: 'INPROGRESS' });
    await handle(env, slackMention({ text: 'mine one' }));
    await handle(env, slackMention({ text: 'someone else', actor: { id: 'U2' } }));
    await handle(env, slackMention({ text: 'list mine' }));
    const list = (await replies()).find((m) => m.type === 'run_list');
    expect(as(list, 'run_list').runs.map((r) => r.title)).toEqual(['mine one']);
    expect(list).toMatchObject({ filters: { mine: true }, truncated: false });
  });
});

describe('factories', () => {
  it('`factory <alias>` dispatches to the exact alias match', async () => {
    await handle(env, slackMention({ text: 'factory docs write the API guide' }));
    const run = env.emulator.runs.all()[0]!;
    expect(run.agent_config).toMatchObject({ name: 'Docs Factory' });
    const record = await env.store.runs.get(run.run_id);
    expect(record).toMatchObject({
      factory: { uid: 'f-docs', alias: 'docs', name: 'Docs Factory' },
      tracked: true,
    });
    expect(record!.applied).toEqual([{ key: 'factory', value: 'docs', source: 'inline' }]);
    // Operators find a factory run's creation like any other's.
    expect(env.logger.lines).toContainEqual(
      expect.objectContaining({
        level: 'info',
        msg: 'run created',
        obj: expect.objectContaining({ runId: run.run_id, factory: 'f-docs' }),
      }),
    );
    const [status] = await replies();
    expect(status).toMatchObject({
      type: 'run_status',
      run: { factory: { alias: 'docs', name: 'Docs Factory' } },
    });
  });

  it('`@alias`, `factory=` and a GitHub label dispatch too', async () => {
    await handle(env, slackMention({ text: '@docs write the FAQ' }));
    await handle(env, slackMention({ text: 'factory=DOCS write the changelog' }));
    await handle(
      env,
      githubComment({ kind: 'label', text: 'fix it', addressed: true, factoryAlias: 'docs' }),
    );
    const runs = env.emulator.runs.all();
    expect(runs).toHaveLength(3);
    expect(runs.every((r) => r.agent_config?.name === 'Docs Factory')).toBe(true);
    // The GitHub dispatch names its ticket: the triggering comment.
    const ticketed = runs.filter((r) =>
      r.trigger_url?.startsWith('https://github.com/octo/widgets/issues/7#issuecomment-'),
    );
    expect(ticketed).toHaveLength(1);
  });

  it('a channel default factory applies to new runs', async () => {
    await byAdmin('config factory=docs');
    await handle(env, slackMention({ text: 'document the CLI' }));
    const run = env.emulator.runs.all()[0]!;
    expect(run.agent_config).toMatchObject({ name: 'Docs Factory' });
    expect((await env.store.runs.get(run.run_id))!.applied).toEqual([
      { key: 'factory', value: 'docs', source: 'default' },
    ]);
  });

  it('no match or several matches: shows the candidates, starts nothing', async () => {
    await handle(env, slackMention({ text: 'factory doc write' }));
    await handle(env, slackMention({ text: 'factory twin write' }));
    await handle(env, slackMention({ text: 'factory nothing-like-it write' }));
    expect(env.emulator.runs.count()).toBe(0);
    const choices = (await replies()).filter((m) => m.type === 'factory_choice');
    expect(
      choices.map((c) => c.type === 'factory_choice' && c.candidates.map((x) => x.uid)),
    ).toEqual([['f-docs', 'f-docs2'], ['f-a', 'f-b'], []]);
  });
});

describe('config and help', () => {
  it('sets, shows and unsets channel defaults', async () => {
    await byAdmin('config model=m-1 env=e-1');
    await handle(env, slackMention({ text: 'config' }));
    await byAdmin('config model=');
    const configs = (await replies()).filter((m) => m.type === 'config');
    expect(configs[0]).toMatchObject({ scope: 'slack:T1:C1', changed: ['model', 'env'] });
    expect(as(configs[0], 'config').settings.map((s) => [s.key, s.value, s.updatedBy])).toEqual([
      ['model', 'm-1', 'U1'],
      ['env', 'e-1', 'U1'],
    ]);
    expect(configs[1]).toMatchObject({ changed: [] });
    expect(as(configs[2], 'config').settings.map((s) => s.key)).toEqual(['env']);
    expect(await env.store.settings.list('slack:T1:C1')).toHaveLength(1);
  });

  it("help names this platform's invocation; a malformed option gets the right form", async () => {
    await handle(env, slackMention({ text: 'help' }));
    await handle(env, slackMention({ text: 'colour=blue do it' }));
    const [help, error] = await replies();
    expect(help).toMatchObject({ type: 'help', invocation: '/agent' });
    // Privately to the person who made the mistake: no need to mention them.
    expect(error).toMatchObject({ type: 'notice', tone: 'error' });
    expect(env.slack.posts.find((p) => p.message === error)?.to.privateTo).toBe('U1');
    expect(as(error, 'notice').usage).toContain('/agent');
    expect(env.emulator.runs.count()).toBe(0);
  });

  it('GitHub help uses the @-handle; a comment not addressed to the bot is ignored', async () => {
    await handle(env, githubComment({ text: '@agent-relay help' }));
    await handle(env, githubComment({ text: 'just a normal comment' }));
    await flushOutbox(env);
    expect(env.github.posts.map((p) => p.message)).toEqual([
      expect.objectContaining({ type: 'help', invocation: '@agent-relay' }),
    ]);
    expect(await env.store.inboxQueue.depth()).toBe(0);
  });
});

describe('answers meant for one person', () => {
  it('errors are private on Slack; a factory that does not exist lists the ones that do', async () => {
    await handle(env, slackMention({ text: `write ${'x'.repeat(9_000)}` }));
    await handle(env, slackMention({ text: 'factory nosuch write the docs' }));
    await flushOutbox(env);
    const tooLong = env.slack.posts.find((p) => p.message.type === 'notice');
    const noFactory = env.slack.posts.find((p) => p.message.type === 'factory_choice');
    expect(tooLong?.message).toMatchObject({ type: 'notice', tone: 'error' });
    expect(tooLong?.to.privateTo).toBe('U1');
    expect(noFactory?.to.privateTo).toBe('U1');
    expect(noFactory?.message).toMatchObject({ type: 'factory_choice', candidates: [] });
    const available = as(noFactory?.message, 'factory_choice').available ?? [];
    expect(available.map((f) => f.alias)).toEqual(['docs', 'docs-two', 'twin', 'TWIN']);
  });

  it('an unknown factory: answered privately, and nothing public before the mistake is ruled out', async () => {
    await handle(env, slackMention({ text: 'factory nosuch write the docs' }));
    await flushOutbox(env);
    // No "Starting…" message, no 👀: the alias was looked up before anything was posted.
    expect(env.slack.posts.filter((p) => p.to.privateTo === undefined)).toEqual([]);
    expect(env.slack.updates).toEqual([]);
    expect(env.slack.reactions).toEqual([]);
    const [choice, ...more] = env.slack.posts;
    expect(more).toEqual([]);
    expect(choice?.message).toMatchObject({ type: 'factory_choice', alias: 'nosuch' });
    expect(choice?.to.privateTo).toBe('U1');
  });

  it('a factory that exists: "Starting…" in public once the alias is found', async () => {
    const trigger = slackMention({ text: 'factory docs write the docs' });
    await handle(env, trigger);
    // Queued in public (the thread, nobody's private answer) before the create.
    const queued = await env.store.outboxQueue.list({ threadKey: trigger.threadKey });
    const starting = queued.find(
      (n) =>
        n.payload.message?.type === 'run_status' && n.payload.message.run.state.name === 'STARTING',
    );
    expect(starting?.payload.destination.privateTo).toBeUndefined();
    await flushOutbox(env);
    // The run was created before the outbox ran, so the public card shows it at once.
    const [status] = env.slack.posts.filter((p) => p.to.privateTo === undefined);
    expect(env.slack.historyOf(status!.ref)[0]).toMatchObject({ type: 'run_status' });
  });

  it('on GitHub, which has no private answers, errors stay in the conversation', async () => {
    await handle(env, githubComment({ text: '@agent-relay colour=blue do it' }));
    await flushOutbox(env);
    const [error] = env.github.posts;
    expect(error?.to.privateTo).toBeUndefined();
    expect(error?.message).toMatchObject({ type: 'notice', mention: { id: 'octocat' } });
  });
});
