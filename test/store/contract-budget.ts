/**
 * Budgets where replicas share one database: every replica counts the same month's spend and
 * sees the same runs of unknown cost, and requests checking at the same moment on two
 * replicas let one run through (the place's start hold is one statement on the shared
 * database). Two stores on one database, as two processes would have.
 */
import { describe, expect, it } from 'vitest';
import type { InboxItem } from '../../src/core/ports/index.js';
import { placeThreadPrefix } from '../../src/core/place.js';
import type { RunsDeps } from '../../src/runs/runs-deps.js';
import { checkBudget } from '../../src/runs/use-cases/budget.js';
import type { TriggerJob } from '../../src/runs/use-cases/trigger-job.js';
import type { OpenedStore } from '../../src/store/index.js';
import { createCountingMetrics, slackMention } from '../runs/fixtures.js';
import { createRecordingLogger } from '../helpers/test-logger.js';
import { sampleRun, twoReplicasEachTest } from './harness.js';
import type { HarnessFactory } from './harness.js';
import { PLATFORM_CAPABILITIES } from '../helpers/platform-capabilities.js';

const NOW = Date.parse('2030-03-15T12:00:00.000Z');
const SCOPE = 'slack:T1:C1';

function depsOf(store: OpenedStore): RunsDeps {
  return {
    store,
    clock: { now: () => NOW },
    metrics: createCountingMetrics(),
    options: { botHandle: 'agent-relay', commandWord: '/agent' },
    notifyOutbox: () => {},
  } as unknown as RunsDeps;
}

function jobOf(requestId: string): TriggerJob {
  const trigger = slackMention({ text: 'start something', anchorsNewThread: true });
  return {
    item: { id: 1, trigger } as unknown as InboxItem,
    trigger,
    threadKey: trigger.threadKey,
    requestId,
    reply: { threadKey: trigger.threadKey },
    actor: { platform: 'slack', id: 'U1' },
    capabilities: PLATFORM_CAPABILITIES.slack,
    mayHaveRunBefore: false,
    log: createRecordingLogger(),
    afterCommit: [],
    whenSettled: [],
    settingsRead: new Map(),
  };
}

/** A budget of $10 on SCOPE, and one ended run of U1's there that cost `costUsd`. */
async function budgetWithEndedRun(store: OpenedStore, costUsd: number): Promise<void> {
  await store.settings.set(SCOPE, 'budget', '10', 'U1', NOW);
  await store.runs.insert(
    sampleRun({
      runId: 'r1',
      requestId: 'q1',
      createdAt: NOW,
      costUsd,
      state: 'SUCCEEDED',
      notifiedState: 'SUCCEEDED',
      tracked: false,
    }),
  );
}

export function describeBudgetContract(createHarness: HarnessFactory): void {
  describe('budgets across replicas', () => {
    const two = twoReplicasEachTest(createHarness);

    it('both replicas count the same spend, as each reports more', async () => {
      const since = Date.parse('2030-03-01T00:00:00.000Z');
      await two.a.runs.insert(
        sampleRun({ runId: 'r1', requestId: 'q1', createdAt: NOW, costUsd: 1.25 }),
      );
      await two.b.runs.insert(
        sampleRun({ runId: 'r2', requestId: 'q2', threadKey: 'slack:T1:C1:9.9', createdAt: NOW }),
      );
      // Last month's run and another channel's do not count.
      await two.b.runs.insert(
        sampleRun({ runId: 'r3', requestId: 'q3', createdAt: since - 1, costUsd: 40 }),
      );
      await two.b.runs.insert(
        sampleRun({
          runId: 'r4',
          requestId: 'q4',
          threadKey: 'slack:T1:C12:1.1',
          createdAt: NOW,
          costUsd: 40,
        }),
      );
      const prefix = placeThreadPrefix(SCOPE);
      expect(await two.a.runs.spendSince(prefix, since)).toBe(1.25);
      expect(await two.b.runs.spendSince(prefix, since)).toBe(1.25);
      // The tracker on replica B records the run's newer report; replica A counts it.
      await two.b.runs.update('r1', { costUsd: 2.5, tokens: 300_000 });
      await two.a.runs.update('r2', { costUsd: 0.1 });
      expect(await two.a.runs.spendSince(prefix, since)).toBe(2.6);
      expect(await two.b.runs.spendSince(prefix, since)).toBe(2.6);
      expect(await two.a.runs.get('r1')).toMatchObject({ costUsd: 2.5, tokens: 300_000 });
      // A run with nothing reported has no cost, not a cost of 0.
      expect((await two.a.runs.get('r4'))?.tokens).toBeUndefined();
      expect(await two.a.runs.spendSince('slack:T9:', since)).toBe(0);
      // A person's month across the workspace's channels: U1 asked for r1, r2 and r4 (r3 was
      // last month).
      expect(await two.b.runs.spendOfRequesterSince('slack:T1:', 'U1', since)).toBe(42.6);
      expect(await two.a.runs.spendOfRequesterSince('slack:T1:', 'U2', since)).toBe(0);
      // App Home's month: the same sum, and how many of those runs reported a cost.
      expect(await two.a.runs.usageOfRequesterSince('slack:T1:', 'U1', since)).toEqual({
        spentUsd: 42.6,
        costed: 3,
      });
      expect(await two.b.runs.usageOfRequesterSince('slack:T1:', 'U2', since)).toEqual({
        spentUsd: 0,
        costed: 0,
      });
    });

    it('runs of unknown cost: live, or followed up since they settled; not ended or waiting and told', async () => {
      const prefix = placeThreadPrefix(SCOPE);
      const since = Date.parse('2030-03-01T00:00:00.000Z');
      const at = (runId: string, overrides: Parameters<typeof sampleRun>[0]) =>
        sampleRun({ runId, requestId: `q-${runId}`, createdAt: NOW, ...overrides });
      await two.a.runs.insert(at('live', { state: 'INPROGRESS' }));
      await two.a.runs.insert(at('ended', { state: 'SUCCEEDED', notifiedState: 'SUCCEEDED' }));
      await two.a.runs.insert(at('waiting', { state: 'BLOCKED', notifiedState: 'BLOCKED' }));
      // Ended, its end not recorded as told yet (the tracker has not finished with it).
      await two.a.runs.insert(at('ending', { state: 'SUCCEEDED' }));
      // A follow-up to an ended run: tracked again, nothing told for its next episode.
      await two.a.runs.insert(at('resumed', { state: 'FAILED', notifiedState: '' }));
      await two.a.runs.insert(at('untracked', { state: 'INPROGRESS', tracked: false }));
      await two.a.runs.insert(at('old', { state: 'INPROGRESS', createdAt: since - 1 }));
      await two.a.runs.insert(
        at('elsewhere', { state: 'INPROGRESS', threadKey: 'slack:T1:C12:1.1' }),
      );
      await two.a.runs.insert(at('bobs', { state: 'QUEUED', requester: { id: 'U2' } }));
      const ids = async (store: OpenedStore, requesterId?: string) =>
        (
          await store.runs.unknownCostSince(prefix, since, {
            limit: 10,
            ...(requesterId ? { requesterId } : {}),
          })
        )
          .map((r) => r.runId)
          .sort();
      expect(await ids(two.b)).toEqual(['bobs', 'ending', 'live', 'resumed']);
      expect(await ids(two.a, 'U2')).toEqual(['bobs']);
      expect(await two.b.runs.unknownCostSince(prefix, since, { limit: 1 })).toHaveLength(1);
    });

    it('a burst on two replicas lets one request through, then none while its run is of unknown cost', async () => {
      await budgetWithEndedRun(two.a, 1);
      const jobs = Array.from({ length: 6 }, (_, i) => jobOf(`burst-${i}`));
      const outcomes = await Promise.all(
        jobs.map((job, i) => checkBudget(depsOf(i % 2 === 0 ? two.a : two.b), job)),
      );
      const through = jobs.filter((_, i) => outcomes[i] === undefined);
      expect(through).toHaveLength(1);
      // Its run is recorded (live), and its request settles: the run holds the budget now.
      await two.b.runs.insert(
        sampleRun({ runId: 'r2', requestId: through[0]!.requestId, createdAt: NOW }),
      );
      for (const settled of through[0]!.whenSettled) await settled();
      expect(await checkBudget(depsOf(two.a), jobOf('after-a'))).toBeTypeOf('function');
      expect(await checkBudget(depsOf(two.b), jobOf('after-b'))).toBeTypeOf('function');
      // Its cost known, the next one goes through.
      await two.a.runs.update('r2', {
        state: 'SUCCEEDED',
        notifiedState: 'SUCCEEDED',
        tracked: false,
        costUsd: 2,
      });
      expect(await checkBudget(depsOf(two.b), jobOf('later'))).toBeUndefined();
    });

    it('at the budget both replicas refuse', async () => {
      await budgetWithEndedRun(two.a, 7);
      await two.b.runs.update('r1', { costUsd: 10 });
      expect(await checkBudget(depsOf(two.a), jobOf('full-a'))).toBeTypeOf('function');
      expect(await checkBudget(depsOf(two.b), jobOf('full-b'))).toBeTypeOf('function');
    });
  });
}
