import type { StoreTx } from '../../core/ports/index.js';
import type { RepoContext } from './repo-context.js';
import { toStartMessage } from './row-mapping.js';
import { compiledOnce } from './compiled-once.js';
import type { Selectable } from 'kysely';
import type { StartMessagesTable } from '../schema.js';

export function createStartMessagesRepo(ctx: RepoContext): StoreTx['startMessages'] {
  // Read for every status notice a run's thread gets: compiled once.
  const byRequest = compiledOnce(['request_id'], (v) =>
    ctx
      .db()
      .selectFrom('start_messages')
      .selectAll()
      .where('request_id', '=', v.request_id as string),
  );
  return {
    async open(requestId, threadKey, now) {
      const inserted = await ctx
        .db()
        .insertInto('start_messages')
        .values({ request_id: requestId, thread_key: threadKey, message: null, created_at: now })
        .onConflict((oc) => oc.column('request_id').doNothing())
        .returning('request_id')
        .executeTakeFirst();
      return inserted !== undefined;
    },

    async get(requestId) {
      const { rows } = await ctx
        .db()
        .executeQuery<Selectable<StartMessagesTable>>(byRequest({ request_id: requestId }));
      const row = rows[0];
      return row ? toStartMessage(row) : undefined;
    },

    async setMessage(requestId, message) {
      await ctx
        .db()
        .updateTable('start_messages')
        .set({ message: JSON.stringify(message) })
        .where('request_id', '=', requestId)
        .execute();
    },
  };
}
