import { describe } from 'vitest';
import { freshStoreEachTest } from './harness.js';
import type { HarnessFactory } from './harness.js';
import { linearSessionsCases } from './linear-sessions-cases.js';

/** The Linear notifier's session memory, shared by two stores (replicas) on one database. */
export function describeLinearSessionsContract(createHarness: HarnessFactory): void {
  describe('Linear sessions', () => {
    const db = freshStoreEachTest(createHarness);
    linearSessionsCases(
      () => db.store.linearSessions!,
      async () => (await db.harness.open()).linearSessions!,
    );
  });
}
