/**
 * Named leases, each taken or renewed by ONE statement (an upsert that only overwrites a row
 * its caller already holds or whose time ran out), so two replicas can never both hold one.
 * The epoch moves whenever the lease changes hands: a holder that sees another epoch than
 * the one it last held knows someone else held the lease in between.
 */
import { sql } from 'kysely';
import type { Store } from '../../core/ports/index.js';
import type { RepoContext } from './repo-context.js';

export function createLeasesRepo(ctx: RepoContext): Store['leases'] {
  return {
    async acquire(name, holder, now, ttlMs) {
      const until = now + ttlMs;
      const result = await sql<{ epoch: number | string }>`
        insert into leases (name, holder, epoch, lease_until)
        values (${name}, ${holder}, 1, ${until})
        on conflict (name) do update set
          epoch = case when leases.holder = excluded.holder
                       then leases.epoch else leases.epoch + 1 end,
          holder = excluded.holder,
          lease_until = excluded.lease_until
        where leases.holder = excluded.holder or leases.lease_until <= ${now}
        returning epoch`.execute(ctx.db());
      const row = result.rows[0];
      return row === undefined ? undefined : { epoch: Number(row.epoch) };
    },

    async release(name, holder) {
      await ctx
        .db()
        .updateTable('leases')
        .set({ lease_until: 0 })
        .where('name', '=', name)
        .where('holder', '=', holder)
        .execute();
    },

    async holder(name, now) {
      const row = await ctx
        .db()
        .selectFrom('leases')
        .select(['holder', 'epoch', 'lease_until'])
        .where('name', '=', name)
        .executeTakeFirst();
      if (!row || Number(row.lease_until) <= now) return undefined;
      return { holder: row.holder, epoch: Number(row.epoch), until: Number(row.lease_until) };
    },
  };
}
