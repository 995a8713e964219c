import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { freshStoreEachTest } from './harness.js';
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
