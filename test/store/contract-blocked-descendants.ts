import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { freshStoreEachTest, sampleRun } from './harness.js';
import type { HarnessFactory } from './harness.js';

/** Descendants of tracked runs in a BLOCKED episode: each episode starts once. */
export function describeBlockedDescendantsContract(createHarness: HarnessFactory): void {
  describe('blocked descendants', () => {
    const db = freshStoreEachTest(createHarness);
    // Fresh ids per test: a shared PostgreSQL schema keeps this table between tests.
    const id = (name: string) => `${name}-${randomUUID()}`;

    it('an episode starts once, and again only after it ended', async () => {
      const repo = db.store.blockedDescendants;
      const [one, two] = [id('child'), id('child')];
      expect(await repo.enter(one, 'run-1', 10)).toBe(true);
      expect(await repo.enter(one, 'run-1', 20)).toBe(false);
      expect(await repo.enter(two, 'run-1', 20)).toBe(true);
      await repo.leave([one, id('never-blocked')], 30);
      expect(await repo.enter(one, 'run-1', 40)).toBe(true);
      expect(await repo.enter(two, 'run-1', 40)).toBe(false);
      await repo.leave([], 50);
    });

    it('numbers each episode and takes one answer per episode, while it lasts', async () => {
      const repo = db.store.blockedDescendants;
      const child = id('child');
      expect(await repo.get(child)).toBeUndefined();
      await repo.enter(child, 'run-1', 10);
      expect(await repo.get(child)).toEqual({
        runId: child,
        ancestorRunId: 'run-1',
        blocked: true,
        version: 1,
      });
      expect(await repo.answer(child, 2, 'approved', 'alice')).toBe(false); // not this episode
      expect(await repo.answer(child, 1, 'approved', 'alice')).toBe(true);
      expect(await repo.answer(child, 1, 'rejected', 'bob')).toBe(false); // already answered
      expect(await repo.get(child)).toMatchObject({ status: 'approved', decidedBy: 'alice' });
      await repo.leave([child], 20);
      // A new episode: a new number, nothing answered yet; an ended one takes no answer.
      expect(await repo.answer(child, 1, 'approved', 'alice')).toBe(false);
      await repo.enter(child, 'run-1', 30);
      const next = await repo.get(child);
      expect(next).toMatchObject({ version: 2, blocked: true });
      expect(next?.status).toBeUndefined();
      await repo.leave([child], 40);
      expect(await repo.answer(child, 2, 'approved', 'alice')).toBe(false);
    });

    it('retention drops an old record once its episode ended or its run is no longer tracked', async () => {
      const { store } = db;
      const repo = store.blockedDescendants;
      const [tracked, untracked] = [id('run'), id('run')];
      for (const [runId, isTracked] of [
        [tracked, true],
        [untracked, false],
      ] as const) {
        await store.runs.insert(
          sampleRun({ runId, requestId: id('req'), tracked: isTracked, updatedAt: 1_000_000 }),
        );
      }
      const child = {
        ended: id('ended'),
        waitingTracked: id('waiting-tracked'),
        waitingUntracked: id('waiting-untracked'),
      };
      await repo.enter(child.ended, tracked, 10);
      await repo.leave([child.ended], 20);
      await repo.enter(child.waitingTracked, tracked, 10);
      await repo.enter(child.waitingUntracked, untracked, 10);

      const pruned = await store.pruneRuns!(100, 1_000);
      expect(pruned.blockedDescendants).toBeGreaterThanOrEqual(2);
      // Gone: a new BLOCKED state starts an episode again. Kept: the episode still counts.
      expect(await repo.enter(child.ended, tracked, 300)).toBe(true);
      expect(await repo.enter(child.waitingUntracked, tracked, 300)).toBe(true);
      expect(await repo.enter(child.waitingTracked, tracked, 300)).toBe(false);
      // Nothing old is left to drop.
      expect(await store.pruneRuns!(100, 1_000)).toMatchObject({ blockedDescendants: 0 });
    });

    it('joins the caller transaction: a rolled-back episode start did not happen', async () => {
      const repo = db.store.blockedDescendants;
      const child = id('child');
      await expect(
        db.store.transaction(async () => {
          expect(await repo.enter(child, 'run-1', 10)).toBe(true);
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect(await repo.enter(child, 'run-1', 20)).toBe(true);
    });
  });
}
