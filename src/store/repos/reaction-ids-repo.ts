/** The platform ids of the reactions the relay added (migration 012). */
import type { ReactionIds } from '../../core/ports/index.js';
import type { RepoContext } from './repo-context.js';

export function createReactionIdsRepo(ctx: RepoContext): ReactionIds {
  return {
    async added(on, content, reactionId, at) {
      await ctx
        .db()
        .insertInto('reaction_ids')
        .values({
          thread_key: on.threadKey,
          message_id: on.messageId,
          content,
          reaction_id: reactionId,
          added_at: at,
        })
        .onConflict((oc) =>
          oc
            .columns(['thread_key', 'message_id', 'content'])
            .doUpdateSet({ reaction_id: reactionId, added_at: at }),
        )
        .execute();
    },
    async find(on, contents) {
      if (contents.length === 0) return [];
      const rows = await ctx
        .db()
        .selectFrom('reaction_ids')
        .select(['content', 'reaction_id'])
        .where('thread_key', '=', on.threadKey)
        .where('message_id', '=', on.messageId)
        .where('content', 'in', [...new Set(contents)])
        .execute();
      return rows.map((r) => ({ content: r.content, reactionId: r.reaction_id }));
    },
    async removed(on, content) {
      await ctx
        .db()
        .deleteFrom('reaction_ids')
        .where('thread_key', '=', on.threadKey)
        .where('message_id', '=', on.messageId)
        .where('content', '=', content)
        .execute();
    },
  };
}
