/**
 * The first schema: threads, aliases, runs, inbox, outbox, settings. Portable DDL: the only
 * dialect difference is how an auto-increment id is spelled.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { DatabaseKind } from '../schema.js';

export function initialMigration(kind: DatabaseKind): Migration {
  // Migrations see the database as it is at that version, not as today's typed schema.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type AnyDb = Kysely<any>;

  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('threads')
        .addColumn('thread_key', 'text', (c) => c.primaryKey())
        .addColumn('platform', 'text', (c) => c.notNull())
        .addColumn('current_run_id', 'text')
        .addColumn('started_by', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('thread_aliases')
        .addColumn('alias_key', 'text', (c) => c.primaryKey())
        .addColumn('thread_key', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('runs')
        .addColumn('run_id', 'text', (c) => c.primaryKey())
        .addColumn('thread_key', 'text', (c) => c.notNull())
        .addColumn('platform', 'text', (c) => c.notNull())
        .addColumn('request_id', 'text', (c) => c.notNull())
        .addColumn('requester', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('service_updated_at', 'text')
        .addColumn('applied', 'text', (c) => c.notNull())
        .addColumn('factory', 'text')
        .addColumn('trigger_message', 'text')
        .addColumn('status_message', 'text')
        .addColumn('notified_state', 'text')
        .addColumn('next_check_at', 'bigint', (c) => c.notNull())
        .addColumn('check_interval_ms', 'integer', (c) => c.notNull())
        .addColumn('tracked', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('runs_request_id_unique')
        .on('runs')
        .column('request_id')
        .unique()
        .execute();
      await db.schema
        .createIndex('runs_tracked_next_check')
        .on('runs')
        .columns(['tracked', 'next_check_at'])
        .execute();
      await db.schema
        .createIndex('runs_thread_key')
        .on('runs')
        .columns(['thread_key', 'created_at'])
        .execute();

      for (const queue of ['inbox', 'outbox'] as const) {
        let table = db.schema.createTable(queue);
        table =
          kind === 'postgres'
            ? table.addColumn('id', 'bigserial', (c) => c.primaryKey())
            : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
        if (queue === 'inbox') {
          table = table
            .addColumn('delivery_id', 'text', (c) => c.notNull())
            .addColumn('thread_key', 'text', (c) => c.notNull())
            .addColumn('trigger', 'text', (c) => c.notNull())
            .addColumn('wait_notice_sent', 'integer', (c) => c.notNull().defaultTo(0));
        } else {
          table = table
            .addColumn('thread_key', 'text', (c) => c.notNull())
            .addColumn('payload', 'text', (c) => c.notNull());
        }
        await table
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
          .addColumn('lease_until', 'bigint')
          .addColumn('last_error', 'text')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex(`${queue}_status_next_attempt`)
          .on(queue)
          .columns(['status', 'next_attempt_at'])
          .execute();
        await db.schema
          .createIndex(`${queue}_thread_key_id`)
          .on(queue)
          .columns(['thread_key', 'id'])
          .execute();
      }
      await db.schema
        .createIndex('inbox_delivery_id_unique')
        .on('inbox')
        .column('delivery_id')
        .unique()
        .execute();

      await db.schema
        .createTable('settings')
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('updated_by', 'text')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('settings_pk', ['scope', 'key'])
        .execute();
    },
  };
}
