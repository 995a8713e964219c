import { describe, expect, it } from 'vitest';
import { freshStoreEachTest } from './harness.js';
import type { HarnessFactory } from './harness.js';

export function describeThreadsAndSettingsContract(createHarness: HarnessFactory): void {
  describe('threads and aliases', () => {
    const db = freshStoreEachTest(createHarness);

    it('creates a thread, then updates the current run and keeps the first starter', async () => {
      expect(await db.store.threads.get('slack:T1:C1:1.1')).toBeUndefined();
      await db.store.threads.upsert(
        { threadKey: 'slack:T1:C1:1.1', platform: 'slack', startedBy: 'U1' },
        10,
      );
      expect(await db.store.threads.get('slack:T1:C1:1.1')).toEqual({
        threadKey: 'slack:T1:C1:1.1',
        platform: 'slack',
        startedBy: 'U1',
        createdAt: 10,
        updatedAt: 10,
      });
      await db.store.threads.upsert(
        { threadKey: 'slack:T1:C1:1.1', platform: 'slack', currentRunId: 'run-1', startedBy: 'U2' },
        20,
      );
      await db.store.threads.upsert({ threadKey: 'slack:T1:C1:1.1', platform: 'slack' }, 30);
      expect(await db.store.threads.get('slack:T1:C1:1.1')).toEqual({
        threadKey: 'slack:T1:C1:1.1',
        platform: 'slack',
        currentRunId: 'run-1',
        startedBy: 'U1',
        createdAt: 10,
        updatedAt: 30,
      });
      await db.store.threads.upsert(
        { threadKey: 'slack:T1:C1:1.1', platform: 'slack', currentRunId: 'run-2' },
        40,
      );
      expect((await db.store.threads.get('slack:T1:C1:1.1'))?.currentRunId).toBe('run-2');
    });

    it('resolves aliases to the thread key, and a plain key to itself', async () => {
      expect(await db.store.threads.resolve('slack:T1:C1:')).toBe('slack:T1:C1:');
      await db.store.threads.addAlias('slack:T1:C1:2.2', 'slack:T1:C1:1.1');
      expect(await db.store.threads.resolve('slack:T1:C1:2.2')).toBe('slack:T1:C1:1.1');
      // An alias of an alias points at the real thread; re-aliasing replaces.
      await db.store.threads.addAlias('slack:T1:C1:3.3', 'slack:T1:C1:2.2');
      expect(await db.store.threads.resolve('slack:T1:C1:3.3')).toBe('slack:T1:C1:1.1');
      await db.store.threads.addAlias('slack:T1:C1:2.2', 'slack:T1:C1:9.9');
      expect(await db.store.threads.resolve('slack:T1:C1:2.2')).toBe('slack:T1:C1:9.9');
      // A self-alias is ignored rather than creating a loop.
      await db.store.threads.addAlias('slack:T1:C1:9.9', 'slack:T1:C1:9.9');
      expect(await db.store.threads.resolve('slack:T1:C1:9.9')).toBe('slack:T1:C1:9.9');
    });
  });

  describe('settings', () => {
    const db = freshStoreEachTest(createHarness);

    it('sets, overwrites, unsets and lists per scope sorted by key', async () => {
      await db.store.settings.set('slack:T1:C1', 'model', 'big', 'U1', 10);
      await db.store.settings.set('slack:T1:C1', 'env', 'prod', 'U1', 11);
      await db.store.settings.set('github:octo/repo', 'model', 'small', 'octocat', 12);
      await db.store.settings.set('slack:T1:C1', 'model', 'bigger', 'U2', 13);

      expect(await db.store.settings.list('slack:T1:C1')).toEqual([
        { scope: 'slack:T1:C1', key: 'env', value: 'prod', updatedBy: 'U1', updatedAt: 11 },
        { scope: 'slack:T1:C1', key: 'model', value: 'bigger', updatedBy: 'U2', updatedAt: 13 },
      ]);
      await db.store.settings.unset('slack:T1:C1', 'env');
      await db.store.settings.unset('slack:T1:C1', 'skill'); // absent: no error
      expect((await db.store.settings.list('slack:T1:C1')).map((s) => s.key)).toEqual(['model']);
      expect((await db.store.settings.list('github:octo/repo')).map((s) => s.value)).toEqual([
        'small',
      ]);
      expect(await db.store.settings.list('nobody')).toEqual([]);
    });
  });
}
