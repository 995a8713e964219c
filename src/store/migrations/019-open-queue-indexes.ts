/**
 * On PostgreSQL, indexes over the queues' open rows only, for the claims' per-thread checks
 * ("is anything older of this thread still open?", "what is queued next behind this one?").
 * Without them the planner answered those checks by intersecting the thread's index with the
 * status index, reading every open row of the queue once per candidate: a claim took tens of
 * milliseconds at 2,000 open rows and over a second at 10,000, so under a burst the
 * notifications of handled triggers waited behind their own claims (of 1,500 mentions at 150 a
 * second on one replica, 6-75 first messages came within 15 s of the load, against all of them
 * with these indexes). With them a claim reads only the thread's own open rows
 * (docs/decisions/open-queue-indexes.md).
 *
 * SQLite's planner already takes the (thread_key, id) index for these checks (a claim at a
 * backlog of 10,000 costs under 2 ms there), and its statements' parameters are opaque to its
 * planner, which could not pick a partial index by a bound status: it gets nothing that every
 * write would pay for.
 */
import type { Migration } from 'kysely/migration';
import type { DatabaseKind } from '../schema.js';
import { createIndex } from './ddl.js';

/** The inbox's open statuses, as this migration wrote them (an index's predicate is fixed). */
const INBOX_OPEN = ['pending', 'processing', 'deferred'] as const;

const INDEXES = ['outbox_pending_thread', 'inbox_open_thread', 'inbox_processing'] as const;

export function openQueueIndexesMigration(kind: DatabaseKind): Migration {
  return {
    async up(db) {
      if (kind !== 'postgres') return;
      // A notification's thread and lane: what is pending before it, and next after it.
      await createIndex(
        db,
        'outbox_pending_thread',
        'outbox',
        ['thread_key', 'low_priority', 'id'],
        {
          where: { column: 'status', values: ['pending'] },
        },
      );
      // A trigger's thread: what is open before it.
      await createIndex(db, 'inbox_open_thread', 'inbox', ['thread_key', 'id'], {
        where: { column: 'status', values: INBOX_OPEN },
      });
      // The triggers being handled: the claim's look for leases that ran out (a crashed
      // worker's), and which threads are busy.
      await createIndex(db, 'inbox_processing', 'inbox', ['id'], {
        where: { column: 'status', values: ['processing'] },
      });
    },
    async down(db) {
      if (kind !== 'postgres') return;
      for (const name of [...INDEXES].reverse()) await db.schema.dropIndex(name).execute();
    },
  };
}
