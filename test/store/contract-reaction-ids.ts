import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { freshStoreEachTest } from './harness.js';
import type { HarnessFactory } from './harness.js';

/** The platform ids of the reactions the relay added, by message and content. */
export function describeReactionIdsContract(createHarness: HarnessFactory): void {
  describe('reaction ids', () => {
    const db = freshStoreEachTest(createHarness);

    it('keeps one id per message and content, finds them, and forgets one taken off', async () => {
      const ids = db.store.reactionIds!;
      const on = { threadKey: `github:octo/${randomUUID()}#42`, messageId: 'issue:1001' };
      const other = { ...on, messageId: 'issue:1002' };
      expect(await ids.find(on, ['eyes'])).toEqual([]);
      await ids.added(on, 'eyes', '9001', 10);
      await ids.added(on, '+1', '9002', 20);
      await ids.added(other, 'eyes', '9100', 30);
      // The same reaction again (GitHub answers with the one it has): the newest id is kept.
      await ids.added(on, 'eyes', '9003', 40);
      const found = await ids.find(on, ['eyes', '+1', 'rocket', 'eyes']);
      expect(found.sort((a, b) => a.content.localeCompare(b.content))).toEqual([
        { content: '+1', reactionId: '9002' },
        { content: 'eyes', reactionId: '9003' },
      ]);
      expect(await ids.find(on, [])).toEqual([]);
      await ids.removed(on, 'eyes');
      expect(await ids.find(on, ['eyes', '+1'])).toEqual([{ content: '+1', reactionId: '9002' }]);
      expect(await ids.find(other, ['eyes'])).toEqual([{ content: 'eyes', reactionId: '9100' }]);
    });
  });
}
