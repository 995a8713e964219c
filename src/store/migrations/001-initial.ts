/**
 * The first schema: threads, aliases, runs, inbox, outbox, settings. Portable DDL: the only
 * dialect difference is how an auto-increment id is spelled.
 */
import type { Migration } from 'kysely/migration';
import type { DatabaseKind } from '../schema.js';
import { createIndex, createTable } from './ddl.js';
import type { ColumnSpec } from './ddl.js';

/** What the inbox and the outbox share after their own columns. */
const QUEUE_COLUMNS: ColumnSpec[] = [
  'status text',
  'attempts integer default 0',
  'next_attempt_at bigint',
  'lease_until bigint null',
  'last_error text null',
  'created_at bigint',
  'updated_at bigint',
];

export function initialMigration(kind: DatabaseKind): Migration {
  return {
    async up(db) {
      await createTable(db, 'threads', [
        'thread_key text key',
        'platform text',
        'current_run_id text null',
        'started_by text null',
        'created_at bigint',
        'updated_at bigint',
      ]);
      await createTable(db, 'thread_aliases', ['alias_key text key', 'thread_key text']);
      await createTable(db, 'runs', [
        'run_id text key',
        'thread_key text',
        'platform text',
        'request_id text',
        'requester text',
        'title text',
        'state text',
        'service_updated_at text null',
        'applied text',
        'factory text null',
        'trigger_message text null',
        'status_message text null',
        'notified_state text null',
        'next_check_at bigint',
        'check_interval_ms integer',
        'tracked integer',
        'created_at bigint',
        'updated_at bigint',
      ]);
      await createIndex(db, 'runs_request_id_unique', 'runs', ['request_id'], { unique: true });
      await createIndex(db, 'runs_tracked_next_check', 'runs', ['tracked', 'next_check_at']);
      await createIndex(db, 'runs_thread_key', 'runs', ['thread_key', 'created_at']);

      const own: Record<'inbox' | 'outbox', ColumnSpec[]> = {
        inbox: [
          'delivery_id text',
          'thread_key text',
          'trigger text',
          'wait_notice_sent integer default 0',
        ],
        outbox: ['thread_key text', 'payload text'],
      };
      for (const queue of ['inbox', 'outbox'] as const) {
        await createTable(db, queue, ['id serial', ...own[queue], ...QUEUE_COLUMNS], { kind });
        await createIndex(db, `${queue}_status_next_attempt`, queue, ['status', 'next_attempt_at']);
        await createIndex(db, `${queue}_thread_key_id`, queue, ['thread_key', 'id']);
      }
      await createIndex(db, 'inbox_delivery_id_unique', 'inbox', ['delivery_id'], { unique: true });

      await createTable(
        db,
        'settings',
        ['scope text', 'key text', 'value text', 'updated_by text null', 'updated_at bigint'],
        { primaryKey: ['scope', 'key'] },
      );
    },
  };
}
