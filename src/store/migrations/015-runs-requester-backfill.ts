/**
 * The requester's id as its own column for the runs stored before that column existed (it
 * was filled only for runs written since): read from the `requester` JSON in the
 * application, in batches, so a person's budget and App Home's month count a run that was
 * live across the upgrade and reported its cost afterwards. A row whose JSON does not parse,
 * or names no id, is left as it was.
 */
import type { Migration } from 'kysely/migration';

const BATCH = 500;

function idOf(requester: string): string | undefined {
  try {
    const value: unknown = JSON.parse(requester);
    if (value === null || typeof value !== 'object') return undefined;
    const id = (value as { id?: unknown }).id;
    return typeof id === 'string' && id !== '' ? id : undefined;
  } catch {
    return undefined;
  }
}

export function runsRequesterBackfillMigration(): Migration {
  return {
    async up(db) {
      let after = '';
      for (;;) {
        const rows = (await db
          .selectFrom('runs')
          .select(['run_id', 'requester'])
          .where('requester_id', 'is', null)
          .where('run_id', '>', after)
          .orderBy('run_id')
          .limit(BATCH)
          .execute()) as { run_id: string; requester: string }[];
        for (const row of rows) {
          const id = idOf(row.requester);
          if (id === undefined) continue;
          await db
            .updateTable('runs')
            .set({ requester_id: id })
            .where('run_id', '=', row.run_id)
            .execute();
        }
        if (rows.length < BATCH) break;
        after = rows[rows.length - 1]!.run_id;
      }
    },
    async down(): Promise<void> {
      // The column stays filled: nothing to undo.
    },
  };
}
