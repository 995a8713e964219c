/** The console's sessions, the one-time values already used, and GitHub login pins. */
import type {
  ConsoleRole,
  ConsoleSessionRecord,
  ConsoleSessionRepo,
  LoginPinRepo,
  UsedOnceRepo,
} from '../../core/ports/index.js';
import type { RepoContext } from './repo-context.js';

export function createConsoleSessionRepo(ctx: RepoContext): ConsoleSessionRepo {
  return {
    async create(r) {
      await ctx
        .db()
        .insertInto('console_sessions')
        .values({
          id: r.id,
          operator_id: r.operatorId,
          operator_name: r.operatorName,
          via: r.via,
          role: r.role,
          grounds: r.grounds,
          csrf: r.csrf,
          created_at: r.createdAt,
          expires_at: r.expiresAt,
        })
        .execute();
    },

    async get(id, now) {
      const row = await ctx
        .db()
        .selectFrom('console_sessions')
        .selectAll()
        .where('id', '=', id)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      if (row === undefined) return undefined;
      const record: ConsoleSessionRecord = {
        id: row.id,
        operatorId: row.operator_id,
        operatorName: row.operator_name,
        via: row.via as ConsoleSessionRecord['via'],
        role: row.role as ConsoleRole,
        grounds: row.grounds,
        csrf: row.csrf,
        createdAt: Number(row.created_at),
        expiresAt: Number(row.expires_at),
      };
      return record;
    },

    async remove(id) {
      await ctx.db().deleteFrom('console_sessions').where('id', '=', id).execute();
    },

    async pruneExpired(now) {
      const result = await ctx
        .db()
        .deleteFrom('console_sessions')
        .where('expires_at', '<=', now)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export function createUsedOnceRepo(ctx: RepoContext): UsedOnceRepo {
  return {
    async use(key, expiresAt, now) {
      await ctx.db().deleteFrom('used_once').where('expires_at', '<=', now).execute();
      const result = await ctx
        .db()
        .insertInto('used_once')
        .values({ key, expires_at: expiresAt })
        .onConflict((oc) => oc.column('key').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },
  };
}

export function createLoginPinRepo(ctx: RepoContext): LoginPinRepo {
  return {
    async pin(login, userId, now) {
      await ctx
        .db()
        .insertInto('login_pins')
        .values({ login, user_id: userId, created_at: now })
        .onConflict((oc) => oc.column('login').doNothing())
        .execute();
      const row = await ctx
        .db()
        .selectFrom('login_pins')
        .select('user_id')
        .where('login', '=', login)
        .executeTakeFirstOrThrow();
      return row.user_id;
    },
  };
}
