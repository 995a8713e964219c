/**
 * Who the bot is (user id, bot id, team): from configuration, else asked once with auth.test
 * and remembered. A failed lookup is not remembered, so the next event asks again.
 */
import { z } from 'zod';
import type { WebClient } from './web-client.js';

export interface BotIdentity {
  botUserId?: string;
  botId?: string;
  teamId?: string;
  /** The bot's user name, for the start-up log. */
  name?: string;
}

export interface IdentityResolver {
  /** The identity; throws when auth.test fails and nothing was configured. */
  resolve(): Promise<BotIdentity>;
  /** Whatever is known now, without asking Slack. */
  known(): BotIdentity;
}

const AuthTest = z.object({
  user_id: z.string().optional(),
  bot_id: z.string().optional(),
  team_id: z.string().optional(),
  user: z.string().optional(),
});

export function createIdentityResolver(
  client: WebClient,
  configured: BotIdentity,
): IdentityResolver {
  let identity: BotIdentity = { ...configured };
  let pending: Promise<BotIdentity> | undefined;
  const complete = () => identity.botUserId !== undefined;

  return {
    known: () => identity,
    resolve() {
      if (complete()) return Promise.resolve(identity);
      pending ??= client.auth
        .test()
        .then((raw) => {
          const r = AuthTest.parse(raw);
          identity = {
            botUserId: identity.botUserId ?? r.user_id,
            botId: identity.botId ?? r.bot_id,
            teamId: identity.teamId ?? r.team_id,
            name: r.user,
          };
          return identity;
        })
        .finally(() => {
          pending = undefined;
        });
      return pending;
    },
  };
}
