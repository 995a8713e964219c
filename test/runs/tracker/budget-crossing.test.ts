/**
 * The budget notice when the tracker records the cost that takes a place to 80 % of its
 * budget, or straight past all of it: one notice per place and month, in the thread of the
 * run, through the outbox (SQLite). The start-time check shares the same monthly lease.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MessageModel } from '../../../src/core/message/message-model.js';
import { takeNoticeLease } from '../../../src/runs/use-cases/budget.js';
import { startClockedEnv, type ClockedEnv } from './harness.js';

let env: ClockedEnv;
beforeEach(async () => {
  env = await startClockedEnv();
});
afterEach(() => env.close());

/** The notices queued so far, with the thread each goes to. */
async function notices(): Promise<{ threadKey: string; text: string; usage?: string }[]> {
  const items = await env.store.outboxQueue.list();
  return items.flatMap((i) => {
    const p = i.payload;
    if (p.kind !== 'post') return [];
    const m = p.message as MessageModel;
    return m.type === 'notice'
      ? [
          {
            threadKey: p.destination.threadKey,
            text: m.text,
            ...(m.usage ? { usage: m.usage } : {}),
          },
        ]
      : [];
  });
}

/** Track one run through INPROGRESS (≈ $0.08 reported) to SUCCEEDED (≈ $1.24). */
async function runToTheEnd(): Promise<string> {
  const [id] = env.emulator.seedRuns(1, { state: 'CLAIMED', manual: true });
  await env.track([id!]);
  const tr = env.tracker();
  for (const state of ['INPROGRESS', 'SUCCEEDED']) {
    env.emulator.setState(id!, state);
    env.clock.advance(2_000);
    await tr.runCycle();
  }
  return id!;
}

/** The notice is queued after the cycle's commit, off the cycle's path: wait for it. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i += 1) await new Promise((r) => setTimeout(r, 10));
}

describe('budget notice from the tracker', () => {
  it('a recorded cost that passes 80 % tells the place once, in the run’s thread', async () => {
    await env.store.settings.set('slack:T1:C1', 'budget', '1.5', 'U1', env.clock.now());
    const id = await runToTheEnd();
    await settle();
    const told = await notices();
    expect(told).toHaveLength(1);
    const record = await env.store.runs.get(id);
    expect(told[0]!.threadKey).toBe(record!.threadKey);
    expect(told[0]!.text).toContain('This channel has spent about $1.24 of its $1.50 budget');
    expect(told[0]!.text).toContain('(82 %)');
    expect(told[0]!.text).toContain(
      'New runs and follow-ups are refused here once the spend reaches the budget',
    );
    expect(told[0]!.usage).toBe('/agent config budget=<US dollars>');

    // A second run's cost in the same month: no second notice.
    await runToTheEnd();
    await settle();
    expect(await notices()).toHaveLength(1);
    // The start check shares the lease: it too finds the month's notice said.
    expect(await takeNoticeLease(env, 'slack:T1:C1', 'a-new-request', env.clock.now())).toBe(false);
  });

  it('a cost that takes the place straight past its budget says new runs are refused', async () => {
    await env.store.settings.set('slack:T1:C1', 'budget', '1', 'U1', env.clock.now());
    await runToTheEnd();
    await settle();
    const told = await notices();
    expect(told).toHaveLength(1);
    expect(told[0]!.text).toContain('about $1.24 of its $1 budget');
    expect(told[0]!.text).toContain(
      'Nothing more is sent to the agent here (new runs, or follow-ups) until the month ends',
    );
  });

  it('below 80 %, or without a budget, nothing is said', async () => {
    await env.store.settings.set('slack:T1:C1', 'budget', '2', 'U1', env.clock.now());
    await runToTheEnd();
    await settle();
    expect(await notices()).toEqual([]);
    await env.store.settings.unset('slack:T1:C1', 'budget');
    await runToTheEnd();
    await settle();
    expect(await notices()).toEqual([]);
  });
});
