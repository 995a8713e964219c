/**
 * Budgets where replicas share one database: every replica counts the same month's spend, and
 * two replicas checking a start near the budget at the same moment let one run through (the
 * place's start hold is one statement on the shared database). Two stores on one database, as
 * two processes would have.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InboxItem } from '../../src/core/ports/index.js';
import { placeThreadPrefix } from '../../src/core/place.js';
import type { RunsDeps } from '../../src/runs/runs-deps.js';
import { checkBudget } from '../../src/runs/use-cases/budget.js';
import type { TriggerJob } from '../../src/runs/use-cases/trigger-job.js';
import type { OpenedStore } from '../../src/store/index.js';
import { createCountingMetrics, slackMention } from '../runs/fixtures.js';
import { createRecordingLogger } from '../helpers/test-logger.js';
import { sampleRun } from './harness.js';
import type { HarnessFactory, StoreHarness } from './harness.js';
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
  };
}

export function describeBudgetContract(createHarness: HarnessFactory): void {
  describe('budgets across replicas', () => {
    let harness: StoreHarness;
    let a: OpenedStore;
    let b: OpenedStore;
    beforeEach(async () => {
      harness = await createHarness();
      a = await harness.open();
      b = await harness.open();
    });
    afterEach(async () => {
      await harness.cleanup();
    });

    it('both replicas count the same spend, as each reports more', async () => {
      const since = Date.parse('2030-03-01T00:00:00.000Z');
      await a.runs.insert(
        sampleRun({ runId: 'r1', requestId: 'q1', createdAt: NOW, costUsd: 1.25 }),
      );
      await b.runs.insert(
        sampleRun({ runId: 'r2', requestId: 'q2', threadKey: 'slack:T1:C1:9.9', createdAt: NOW }),
      );
      // Last month's run and another channel's do not count.
      await b.runs.insert(
        sampleRun({ runId: 'r3', requestId: 'q3', createdAt: since - 1, costUsd: 40 }),
      );
      await b.runs.insert(
        sampleRun({
          runId: 'r4',
          requestId: 'q4',
          threadKey: 'slack:T1:C12:1.1',
          createdAt: NOW,
          costUsd: 40,
        }),
      );
      const prefix = placeThreadPrefix(SCOPE);
      expect(await a.runs.spendSince(prefix, since)).toBe(1.25);
      expect(await b.runs.spendSince(prefix, since)).toBe(1.25);
      // The tracker on replica B records the run's newer report; replica A counts it.
      await b.runs.update('r1', { costUsd: 2.5, tokens: 300_000 });
      await a.runs.update('r2', { costUsd: 0.1 });
      expect(await a.runs.spendSince(prefix, since)).toBe(2.6);
      expect(await b.runs.spendSince(prefix, since)).toBe(2.6);
      expect(await a.runs.get('r1')).toMatchObject({ costUsd: 2.5, tokens: 300_000 });
      // A run with nothing reported has no cost, not a cost of 0.
      expect((await a.runs.get('r4'))?.tokens).toBeUndefined();
      expect(await a.runs.spendSince('slack:T9:', since)).toBe(0);
      // A person's month across the workspace's channels: U1 asked for r1, r2 and r4 (r3 was
      // last month).
      expect(await b.runs.spendOfRequesterSince('slack:T1:', 'U1', since)).toBe(42.6);
      expect(await a.runs.spendOfRequesterSince('slack:T1:', 'U2', since)).toBe(0);
      // App Home's month: the same sum, and how many of those runs reported a cost.
      expect(await a.runs.usageOfRequesterSince('slack:T1:', 'U1', since)).toEqual({
        spentUsd: 42.6,
        costed: 3,
      });
      expect(await b.runs.usageOfRequesterSince('slack:T1:', 'U2', since)).toEqual({
        spentUsd: 0,
        costed: 0,
      });
    });

    it('two replicas starting near the budget at once: one run starts, one is refused', async () => {
      await a.settings.set(SCOPE, 'budget', '10', 'U1', NOW);
      await a.runs.insert(
        sampleRun({ runId: 'r1', requestId: 'q1', createdAt: NOW, costUsd: 9.9 }),
      );
      for (let round = 0; round < 5; round += 1) {
        await harness.exec(`DELETE FROM leases`);
        const outcomes = await Promise.all([
          checkBudget(depsOf(a), jobOf(`race-a-${round}`)),
          checkBudget(depsOf(b), jobOf(`race-b-${round}`)),
        ]);
        expect(outcomes.filter((o) => o === undefined)).toHaveLength(1);
      }
    });

    it('at the budget both replicas refuse; below 80 % both start', async () => {
      await a.settings.set(SCOPE, 'budget', '10', 'U1', NOW);
      await a.runs.insert(sampleRun({ runId: 'r1', requestId: 'q1', createdAt: NOW, costUsd: 7 }));
      expect(await checkBudget(depsOf(a), jobOf('low-a'))).toBeUndefined();
      expect(await checkBudget(depsOf(b), jobOf('low-b'))).toBeUndefined();
      await b.runs.update('r1', { costUsd: 10 });
      expect(await checkBudget(depsOf(a), jobOf('full-a'))).toBeTypeOf('function');
      expect(await checkBudget(depsOf(b), jobOf('full-b'))).toBeTypeOf('function');
    });
  });
}
