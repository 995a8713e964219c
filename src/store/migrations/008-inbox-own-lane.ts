/**
 * An inbox item that starts a thread of its own (a slash-command prompt, the start form opened
 * from no message) is queued under its channel's key but waits only behind the channel's other
 * items, not behind the channel's other such prompts: each prompt becomes its own thread, so
 * they are handled side by side. The flag marks those items for the claim query.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export function inboxOwnLaneMigration(): Migration {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type AnyDb = Kysely<any>;
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .alterTable('inbox')
        .addColumn('own_lane', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.alterTable('inbox').dropColumn('own_lane').execute();
    },
  };
}
