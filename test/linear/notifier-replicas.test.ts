/**
 * Two Linear notifiers on one store (one SQLite file, two connections): two replicas, either
 * of which may deliver any message of a session. What one delivered decides what the other
 * writes: a keep-alive comes from the shared facts (once, by one of them, never after the run
 * ended), and a Stop answered on one keeps the other from asking after it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  notice,
  runOutcomeMessage,
  runStatusMessage,
} from '../../src/core/message/render-model.js';
import { starting, to, view } from './notifier-messages.js';
import { startFakeLinear, type FakeLinear } from '../../src/fakes/linear-graphql-api.js';
import { createLinearNotifier, type LinearNotifier } from '../../src/linear/index.js';
import { openStore, type OpenedStore } from '../../src/store/index.js';
import { currentRunWorks } from '../../src/linear/platform.js';
import { captureLogs } from '../helpers/log-capture.js';
import { sampleRun } from '../store/harness.js';

const KEEP_ALIVE_MS = 20 * 60_000;
const STILL_WORKING = { type: 'thought' as const, body: 'Still working on it…' };

let linear: FakeLinear | undefined;
let dir: string | undefined;
const notifiers: LinearNotifier[] = [];
const stores: OpenedStore[] = [];
afterEach(async () => {
  for (const n of notifiers.splice(0)) n.close();
  await Promise.all(stores.splice(0).map((s) => s.close()));
  await linear?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  linear = dir = undefined;
});

/**
 * Replicas A and B: each its own store connection on one database file, one clock; with
 * `runWorks`, each asks the store whether the session's run still works, as the service does.
 */
async function twoReplicas(opts: { runWorks?: boolean } = {}) {
  linear = await startFakeLinear();
  linear.sessions.set('s1', {
    id: 's1',
    organizationId: 'org-acme',
    issueId: 'i1',
    creatorId: 'user-ada',
    externalUrls: [],
    createdAt: 0,
  });
  dir = await mkdtemp(join(tmpdir(), 'linear-replicas-'));
  const databaseUrl = `sqlite:${join(dir, 'relay.db')}`;
  let now = 1_000_000;
  const clock = { now: () => now };
  const replica = async () => {
    const store = await openStore({ databaseUrl, checkpointIntervalMs: 0 });
    await store.migrate();
    stores.push(store);
    const notifier = createLinearNotifier({
      apiUrl: linear!.url,
      token: linear!.workspaces[0]!.token,
      logger: captureLogs().logger,
      clock,
      keepAliveMs: KEEP_ALIVE_MS,
      sessions: store.linearSessions!,
      ...(opts.runWorks ? { runWorks: (key: string) => currentRunWorks(store, key) } : {}),
    });
    notifiers.push(notifier);
    return notifier;
  };
  const a = await replica();
  const b = await replica();
  const activities = () => linear!.activitiesOf('s1').map((x) => x.content);
  return { linear, a, b, store: stores[0]!, activities, advance: (ms: number) => (now += ms) };
}

describe('the Linear notifier on two replicas sharing a store', () => {
  it('writes no keep-alive into a session whose end another replica delivered', async () => {
    const { a, b, activities, advance } = await twoReplicas();
    const posted = await a.post(to, starting, { key: 'n1.1' });
    await a.update(posted.ref, runStatusMessage(view('INPROGRESS')));
    advance(60_000);
    await b.update(posted.ref, runStatusMessage(view('SUCCEEDED')));
    await b.post(to, runOutcomeMessage(view('SUCCEEDED')), { key: 'n1.2' });
    expect(activities().at(-1)).toMatchObject({ type: 'response' });
    advance(2 * KEEP_ALIVE_MS);
    expect(await a.keepAlive()).toBe(0);
    expect(await b.keepAlive()).toBe(0);
    expect(activities().at(-1)).toMatchObject({ type: 'response' });
    expect(activities()).not.toContainEqual(STILL_WORKING);
  });

  it('counts the quiet period from the last write of either, and one of them keeps it alive', async () => {
    const { a, b, activities, advance } = await twoReplicas();
    const posted = await a.post(to, starting, { key: 'n1.1' });
    await a.update(posted.ref, runStatusMessage(view('INPROGRESS')));
    advance(10 * 60_000);
    // B writes to the session (a progress thought of the same live run).
    const before = activities().length;
    const setup = { kind: 'setup' as const, events: ['environment ready'] };
    await b.update(posted.ref, runStatusMessage({ ...view('INPROGRESS'), progress: setup }));
    expect(activities().length).toBe(before + 1);
    const written = activities().length;
    advance(11 * 60_000);
    // Quiet for 11 minutes only, though A last wrote 21 minutes ago.
    expect([await a.keepAlive(), await b.keepAlive()]).toEqual([0, 0]);
    advance(10 * 60_000);
    // Both sweep at once: exactly one keep-alive.
    const sent = await Promise.all([a.keepAlive(), b.keepAlive()]);
    expect(sent[0]! + sent[1]!).toBe(1);
    expect(activities().slice(written)).toEqual([STILL_WORKING]);
    // The keep-alive was a write too: the next quiet period starts from it.
    advance(KEEP_ALIVE_MS - 60_000);
    expect([await a.keepAlive(), await b.keepAlive()]).toEqual([0, 0]);
    advance(60_000);
    expect((await b.keepAlive()) + (await a.keepAlive())).toBe(1);
    expect(activities().slice(written)).toEqual([STILL_WORKING, STILL_WORKING]);
  });

  it('keeps alive a quiet run whose working status only the other replica delivered', async () => {
    const { a, b, activities, advance } = await twoReplicas();
    const posted = await a.post(to, starting, { key: 'n1.1' });
    await a.update(posted.ref, runStatusMessage(view('INPROGRESS')));
    advance(KEEP_ALIVE_MS);
    expect(await b.keepAlive()).toBe(1);
    expect(await a.keepAlive()).toBe(0);
    expect(activities().at(-1)).toEqual(STILL_WORKING);
  });

  it('writes no question after a Stop whose answer the other replica delivered', async () => {
    const { a, b, activities, advance } = await twoReplicas();
    const posted = await a.post(to, starting, { key: 'n1.1' });
    await b.update(posted.ref, runStatusMessage(view('INPROGRESS')));
    await a.post(to, {
      ...notice('info', 'stopped the agent: it was interrupted. Reply in this thread to continue.'),
      closing: true,
    });
    // The Stop ended the turn: no keep-alive after its answer, before the run is seen waiting.
    advance(2 * KEEP_ALIVE_MS);
    expect([await a.keepAlive(), await b.keepAlive()]).toEqual([0, 0]);
    await b.update(posted.ref, runStatusMessage(view('BLOCKED')));
    await b.post(
      to,
      runOutcomeMessage(view('BLOCKED', { status_message: { message: 'Interrupted by user' } })),
    );
    expect(activities().at(-1)).toEqual({
      type: 'response',
      body: 'stopped the agent: it was interrupted. Reply in this thread to continue.',
    });
    expect(activities().map((c) => c.type)).not.toContain('elicitation');
    // The mark was taken: the run's next question (after a reply) is asked, on either replica.
    await a.post(
      to,
      runOutcomeMessage(view('BLOCKED', { status_message: { message: 'Which database?' } })),
    );
    expect(activities().at(-1)).toMatchObject({ type: 'elicitation' });
  });

  it('lets a keep-alive claimed on one replica land before the other writes the run’s end', async () => {
    const { a, b, activities, advance } = await twoReplicas();
    const posted = await a.post(to, starting, { key: 'n1.1' });
    await a.update(posted.ref, runStatusMessage(view('INPROGRESS')));
    const now = advance(KEEP_ALIVE_MS);
    // A claims the keep-alive, as its sweep does, and is still writing it …
    const shared = stores[0]!.linearSessions!;
    const [quiet] = await shared.quiet(now + 1, 10);
    const claimed = shared.claimKeepAlive(to.threadKey, quiet!.lastWrittenAt, now, now + 15_000);
    expect(await claimed).toBe(true);
    // … when B delivers the run's end: it waits for that keep-alive.
    let ended = false;
    const end = (async () => {
      await b.update(posted.ref, runStatusMessage(view('SUCCEEDED')));
      await b.post(to, runOutcomeMessage(view('SUCCEEDED')), { key: 'n1.2' });
      ended = true;
    })();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ended).toBe(false);
    expect(activities().map((c) => c.type)).not.toContain('response');
    // A's keep-alive lands and its claim ends; then B's response follows it.
    await a.tell('org-acme', 's1', { content: STILL_WORKING });
    await shared.keepAliveDone(to.threadKey);
    await end;
    expect(activities().slice(-2)).toEqual([
      STILL_WORKING,
      expect.objectContaining({ type: 'response' }),
    ]);
    // And no replica keeps the ended session alive.
    advance(2 * KEEP_ALIVE_MS);
    expect([await a.keepAlive(), await b.keepAlive()]).toEqual([0, 0]);
  });

  it('tries a failed keep-alive again at the next sweep, and not one Linear refused for good', async () => {
    const { a, b, linear, activities, advance } = await twoReplicas();
    const posted = await a.post(to, starting, { key: 'n1.1' });
    await a.update(posted.ref, runStatusMessage(view('INPROGRESS')));
    advance(KEEP_ALIVE_MS);
    linear.failNext(503);
    expect(await a.keepAlive()).toBe(0);
    // The claim was given back: the other replica's next sweep writes it, without waiting.
    advance(60_000);
    expect(await b.keepAlive()).toBe(1);
    expect(activities().at(-1)).toEqual(STILL_WORKING);
    // The session is gone from Linear: one refusal, then no more attempts.
    advance(KEEP_ALIVE_MS);
    linear.sessions.delete('s1');
    expect(await b.keepAlive()).toBe(0);
    const asked = linear.requests.length;
    advance(KEEP_ALIVE_MS);
    expect([await a.keepAlive(), await b.keepAlive()]).toEqual([0, 0]);
    expect(linear.requests.length).toBe(asked);
  });

  it('writes no keep-alive while the store says the run ended, though Linear was never told', async () => {
    const { a, b, store, activities, advance } = await twoReplicas({ runWorks: true });
    const threadKey = to.threadKey;
    await store.threads.upsert({ threadKey, platform: 'linear', currentRunId: 'r1' }, 1_000_000);
    await store.runs.insert(
      sampleRun({ runId: 'r1', threadKey, platform: 'linear', state: 'INPROGRESS' }),
    );
    const posted = await a.post(to, starting, { key: 'n1.1' });
    await a.update(posted.ref, runStatusMessage(view('INPROGRESS')));
    advance(KEEP_ALIVE_MS + 60_000);
    expect(await b.keepAlive()).toBe(1);
    // The run ends; the message that would tell Linear is parked (never delivered).
    await store.runs.update('r1', { state: 'SUCCEEDED' });
    const before = activities().length;
    advance(KEEP_ALIVE_MS + 60_000);
    expect((await a.keepAlive()) + (await b.keepAlive())).toBe(0);
    expect(activities()).toHaveLength(before);
    // A follow-up brings the run back to work: keep-alives again when it goes quiet.
    await store.runs.update('r1', { state: 'INPROGRESS' });
    await b.update(posted.ref, runStatusMessage(view('INPROGRESS')));
    advance(KEEP_ALIVE_MS + 60_000);
    expect(await a.keepAlive()).toBe(1);
    expect(activities().at(-1)).toEqual(STILL_WORKING);
  });
});
