/**
 * An inbox item that starts a thread of its own (a slash-command prompt, the start form opened
 * from no message) is queued under its channel's key but waits only behind the channel's other
 * items, not behind the channel's other such prompts: each prompt becomes its own thread, so
 * they are handled side by side. The flag marks those items for the claim query.
 */
import type { Migration } from 'kysely/migration';
import { addColumns, dropColumns } from './ddl.js';

export function inboxOwnLaneMigration(): Migration {
  return {
    up: (db) => addColumns(db, 'inbox', ['own_lane integer default 0']),
    down: (db) => dropColumns(db, 'inbox', ['own_lane']),
  };
}
