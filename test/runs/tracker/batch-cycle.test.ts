/**
 * Batch mode's high-water mark, restart catch-up, sweep, summary list items and failures,
 * on a clock shared by the emulator and the tracker (exact `updated_at` values).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { iso, START, startClockedEnv, type ClockedEnv } from './harness.js';

let env: ClockedEnv;
beforeEach(async () => {
  env = await startClockedEnv();
});
afterEach(() => env.close());

/** Hold `n` runs in INPROGRESS (entered at the clock's now) and track them. */
async function heldRuns(n: number): Promise<string[]> {
  const ids = env.emulator.seedRuns(n, { state: 'INPROGRESS', manual: true });
  await env.track(ids);
  return ids;
}

async function outcomesOf(runId: string, store = env.store): Promise<string[]> {
  const items = await store.outboxQueue.list();
  return items.flatMap((i) =>
    i.payload.runId === runId && i.payload.message?.type === 'run_outcome'
      ? [i.payload.message.run.state.name]
      : [],
  );
}

describe('batch tracker: what each listing asks for', () => {
  it('lists every state since the high-water mark; an idle run does not widen it', async () => {
    const [idle, busy] = await heldRuns(2);
    const tr = env.tracker();
    await tr.runCycle();
    // First listing: from the oldest observation (both seen at START), minus the margin.
    expect(env.listings[0]).toEqual({
      updated_after: iso(START - 2_000),
      sort_by: 'updated_at',
      sort_order: 'asc',
      limit: 500,
    });

    // Ten minutes per cycle, only `busy` changes: the listing follows its changes.
    let changedAt = START;
    // Each a step forward (a step back keeps the headline and edits nothing).
    for (const state of ['BLOCKED', 'INPROGRESS', 'BLOCKED', 'INPROGRESS']) {
      const previous = changedAt;
      changedAt = env.clock.advance(600_000);
      env.emulator.setState(busy!, state);
      const stats = await tr.runCycle();
      expect(stats).toMatchObject({ listRequests: 1, detailRequests: 0, changed: 1 });
      expect(env.listings.at(-1)!.updated_after).toBe(iso(previous - 2_000));
    }
    expect(await env.store.runs.get(idle!)).toMatchObject({ state: 'INPROGRESS', tracked: true });
    expect(await env.queued(idle!, 'status')).toBe(0);
    expect(await env.queued(busy!, 'status')).toBe(4);
  });

  it('a listing cut by the page bound continues from the last item listed', async () => {
    const ids = await heldRuns(5);
    const tr = env.tracker({ listPageLimit: 2, maxListPages: 2 });
    for (const [i, runId] of ids.entries()) {
      env.clock.advance(1_000);
      // A step forward from INPROGRESS (a step back would edit nothing).
      env.emulator.setState(runId, i % 2 ? 'BLOCKED' : 'PAUSED_FOR_REVIEW');
    }
    const first = await tr.runCycle();
    expect(first).toMatchObject({ listRequests: 2, changed: 4 });
    const second = await tr.runCycle();
    expect(second).toMatchObject({ listRequests: 2, changed: 1 });
    // Continued from the 4th change (START + 4 s), not from the start.
    expect(env.listings.at(-1)!.updated_after).toBe(iso(START + 4_000 - 2_000));
    for (const runId of ids) expect(await env.queued(runId, 'status')).toBe(1);
  });

  it('a failed listing is retried from the same point next cycle', async () => {
    const [runId] = await heldRuns(1);
    const tr = env.tracker();
    await tr.runCycle();
    env.clock.advance(2_000);
    env.emulator.setState(runId!, 'BLOCKED');
    env.emulator.faults.failNext(1, 500, { route: 'GET /agent/runs' });
    const failed = await tr.runCycle();
    expect(failed).toMatchObject({ listFailed: true, changed: 0 });
    const retried = await tr.runCycle();
    expect(retried).toMatchObject({ listFailed: false, changed: 1, detailRequests: 0 });
    expect(env.listings.at(-1)!.updated_after).toBe(env.listings.at(-2)!.updated_after);
    expect(await outcomesOf(runId!)).toEqual(['BLOCKED']);
  });
});

describe('batch tracker: complete messages and missed changes', () => {
  it('summary list items: detail only for an ended or BLOCKED state, retried if it fails', async () => {
    const [live, ended, blocked] = await heldRuns(3);
    const tr = env.tracker();
    await tr.runCycle();
    env.slimListItems = true;
    env.clock.advance(2_000);
    env.emulator.setState(live!, 'CLAIMED');
    expect(await tr.runCycle()).toMatchObject({ changed: 1, detailRequests: 0 });

    env.clock.advance(2_000);
    env.emulator.setState(ended!, 'SUCCEEDED');
    env.emulator.setState(blocked!, 'BLOCKED');
    env.emulator.faults.failNext(1, 500, { route: 'GET /agent/runs/:id' });
    const partly = await tr.runCycle();
    expect(partly).toMatchObject({ detailRequests: 2, changed: 1 });
    const rest = await tr.runCycle();
    expect(rest).toMatchObject({ detailRequests: 1, changed: 1 });
    expect(await tr.runCycle()).toMatchObject({ detailRequests: 0, changed: 0 });

    expect(await outcomesOf(ended!)).toEqual(['SUCCEEDED']);
    expect(await outcomesOf(blocked!)).toEqual(['BLOCKED']);
    const posts = (await env.store.outboxQueue.list()).filter((i) => i.payload.kind === 'post');
    const byRun = new Map(posts.map((p) => [p.payload.runId, p.payload.message]));
    expect(byRun.get(ended)).toMatchObject({
      run: { links: expect.arrayContaining([expect.objectContaining({ kind: 'pull_request' })]) },
    });
    expect(byRun.get(blocked)).toMatchObject({
      run: { statusMessage: expect.stringContaining('needs your input') },
    });
  });

  it('the sweep finds a change committed behind the high-water mark', async () => {
    const [late, other] = await heldRuns(2);
    const tr = env.tracker({ sweepEveryCycles: 4 });
    await tr.runCycle();
    env.clock.advance(20_000);
    env.emulator.setState(other!, 'CLAIMED');
    await tr.runCycle();
    // The service commits `late`'s change with a timestamp 19 s in the past.
    env.emulatorLagMs = 19_000;
    env.emulator.setState(late!, 'SUCCEEDED');
    env.emulatorLagMs = 0;
    expect(env.emulator.runs.get(late!)!.updated_at).toBe(iso(START + 1_000));

    env.clock.advance(2_000);
    const missed = await tr.runCycle();
    expect(missed).toMatchObject({ swept: false, changed: 0, detailRequests: 0 });
    expect((await env.store.runs.get(late!))!.state).toBe('INPROGRESS');

    const swept = await tr.runCycle();
    expect(swept).toMatchObject({ swept: true, listRequests: 2, detailRequests: 1, changed: 1 });
    expect(env.listings.at(-1)).toMatchObject({ sort_by: 'created_at' });
    expect(env.listings.at(-1)!.updated_after).toBeUndefined();
    expect(await env.store.runs.get(late!)).toMatchObject({ state: 'SUCCEEDED', tracked: false });
    expect(await outcomesOf(late!)).toEqual(['SUCCEEDED']);
  });

  it('restart: a new tracker catches up on what changed while down, told exactly once', async () => {
    const [done, waiting, quiet] = await heldRuns(3);
    await env.tracker().runCycle();

    // Down for two minutes; two runs change meanwhile.
    env.clock.advance(60_000);
    env.emulator.setState(done!, 'SUCCEEDED');
    env.clock.advance(60_000);
    env.emulator.setState(waiting!, 'BLOCKED');

    const store = await env.reopenStore();
    const second = env.tracker({}, store);
    expect(await second.runCycle()).toMatchObject({ changed: 2, detailRequests: 0 });
    expect(env.listings.at(-1)!.updated_after).toBe(iso(START - 2_000));
    await second.runCycle();
    await env.tracker({}, store).runCycle();

    expect(await outcomesOf(done!, store)).toEqual(['SUCCEEDED']);
    expect(await outcomesOf(waiting!, store)).toEqual(['BLOCKED']);
    expect(await env.queued(quiet!, 'status', store)).toBe(0);
    expect(await store.runs.get(done!)).toMatchObject({ tracked: false });
  });

  it('a run tracked again after a follow-up is looked for since then, not since it ended', async () => {
    const [rerun, other] = await heldRuns(2);
    const tr = env.tracker();
    await tr.runCycle();
    env.clock.advance(2_000);
    env.emulator.setState(rerun!, 'SUCCEEDED');
    await tr.runCycle();
    expect((await env.store.runs.get(rerun!))!.tracked).toBe(false);

    // An hour later: a follow-up runs it again, and it fails before its record is tracked
    // again; a listing in between passes it by (not tracked then).
    const followedUpAt = env.clock.advance(3_600_000);
    await env.agent.sendFollowup(rerun!, { message: 'once more [fail]' });
    env.clock.advance(1_000);
    expect(env.emulator.runs.get(rerun!)!.state).toBe('FAILED');
    await tr.runCycle();
    await env.store.runs.update(rerun!, {
      tracked: true,
      notifiedState: '',
      updatedAt: followedUpAt,
    });

    env.clock.advance(2_000);
    env.emulator.setState(other!, 'CLAIMED');
    expect(await tr.runCycle()).toMatchObject({ changed: 2, detailRequests: 0 });
    // One minute before the record's write, not the hour back to when the run ended.
    expect(env.listings.at(-1)!.updated_after).toBe(iso(followedUpAt - 60_000 - 2_000));
    expect(await outcomesOf(rerun!)).toEqual(['SUCCEEDED', 'FAILED']);
  });
});
