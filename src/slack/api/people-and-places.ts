/**
 * Two questions the console asks Slack, with the workspace's own bot token: is this person
 * a guest (`users.info`: `is_restricted`, `is_ultra_restricted`), and is this channel public
 * (`conversations.info`: not private, not a DM). Undefined / false when Slack does not say
 * (a missing scope, an error): the console then treats the person as not let in and the
 * channel as private.
 */
import type { Logger } from '../../core/ports/index.js';
import type { BotTokenSource } from './bot-tokens.js';
import { createWorkspaceClients } from './workspace-clients.js';

export interface SlackPeopleAndPlaces {
  /** Slack's own `users.info` answer (throws when Slack does not answer), for the access check. */
  usersInfo(team: string, user: string): Promise<unknown>;
  isGuest(team: string, user: string): Promise<boolean | undefined>;
  isPublicChannel(team: string, channel: string): Promise<boolean>;
}

interface UserInfo {
  user?: { is_restricted?: boolean; is_ultra_restricted?: boolean; deleted?: boolean };
}
interface ChannelInfo {
  channel?: { is_private?: boolean; is_im?: boolean; is_mpim?: boolean; is_channel?: boolean };
}

export function createSlackPeopleAndPlaces(
  tokens: BotTokenSource,
  options: { apiUrl?: string; logger: Logger },
): SlackPeopleAndPlaces {
  const clients = createWorkspaceClients(tokens, {
    ...(options.apiUrl === undefined ? {} : { apiUrl: options.apiUrl }),
    logger: options.logger,
    timeoutMs: 3_000,
  });
  const log = options.logger.child({ component: 'slack-people' });
  return {
    async usersInfo(team, user) {
      return (await clients(team)).users.info({ user });
    },
    async isGuest(team, user) {
      try {
        const answer = (await (await clients(team)).users.info({ user })) as UserInfo;
        if (!answer.user) return undefined;
        return (
          answer.user.is_restricted === true ||
          answer.user.is_ultra_restricted === true ||
          answer.user.deleted === true
        );
      } catch (err) {
        log.warn({ err, team }, 'Slack did not say whether a person is a guest');
        return undefined;
      }
    },
    async isPublicChannel(team, channel) {
      try {
        const answer = (await (await clients(team)).conversations.info({ channel })) as ChannelInfo;
        const c = answer.channel;
        return c !== undefined && c.is_private !== true && c.is_im !== true && c.is_mpim !== true;
      } catch (err) {
        log.debug({ err, team }, 'Slack did not say whether a channel is public');
        return false;
      }
    },
  };
}
