/**
 * Workspaces that installed the app (OAuth): Bolt's installation store over the relay's
 * database (through the `InstallationRepo` port), each installation sealed with the token
 * cipher, and the bot of a workspace for every Web API call the relay makes there.
 *
 * Keys: a workspace install is (enterprise or '', team); an Enterprise Grid organisation-wide
 * install is (enterprise, ''). A workspace seen under an organisation is linked to it, so a
 * thread key (which names the workspace) finds the organisation's bot.
 */
import type { Installation, InstallationQuery, InstallationStore } from '@slack/bolt';
import { z } from 'zod';
import type { Clock, InstallationKey, InstallationRepo, Logger } from '../../core/ports/index.js';
import { RelayError } from '../../core/relay-error.js';
import type { TokenCipher } from '../../platform/token-cipher.js';

/** The bot of one installation: what a Web API call in that workspace needs. */
export interface InstalledBot {
  token: string;
  botUserId: string;
  botId?: string;
  teamId?: string;
  enterpriseId?: string;
  isEnterpriseInstall: boolean;
}

export class NotInstalledError extends RelayError<'slack_not_installed'> {
  override readonly name = 'NotInstalledError';
  constructor(message: string) {
    super('slack_not_installed', message);
  }
}

/**
 * A workspace whose app has token rotation turned on gets a bot token that expires (in 12
 * hours) with a refresh token. The relay keeps one long-lived token per workspace and does
 * not refresh, so such an install is refused (nothing stored) rather than left to stop
 * working half a day later.
 */
export class TokenRotationRefused extends RelayError<'slack_token_rotation'> {
  override readonly name = 'TokenRotationRefused';
  constructor() {
    super(
      'slack_token_rotation',
      'the app has token rotation turned on; agent-relay needs tokens that do not expire',
    );
  }
}

export const TOKEN_ROTATION_ADVICE =
  'This Slack app has token rotation turned on, so Slack issued a token that expires; agent-relay needs one that does not. ' +
  'Nothing was installed. Slack does not let an app turn token rotation off again: create the app anew from the manifest ' +
  '(token rotation stays off unless you turn it on) and install that one.';

export interface SlackInstallations {
  /** For Bolt's OAuth (InstallProvider) and `authorize`. */
  readonly store: InstallationStore;
  /** The bot for a workspace (and organisation, when known); undefined: not installed. */
  botFor(q: {
    teamId?: string;
    enterpriseId?: string;
    isEnterpriseInstall?: boolean;
  }): Promise<InstalledBot | undefined>;
  /** Forget the installation of a workspace or organisation (uninstall, revoked token). */
  remove(q: {
    teamId?: string;
    enterpriseId?: string;
    isEnterpriseInstall?: boolean;
  }): Promise<boolean>;
  /** Remember that a workspace acts under an organisation-wide install. */
  link(teamId: string, enterpriseId: string): Promise<void>;
}

const Stored = z.object({
  bot: z.object({ token: z.string(), userId: z.string(), id: z.string().optional() }).optional(),
  team: z.object({ id: z.string() }).optional(),
  enterprise: z.object({ id: z.string() }).optional(),
  isEnterpriseInstall: z.boolean().optional(),
});

function keyOf(q: {
  teamId?: string | undefined;
  enterpriseId?: string | undefined;
  isEnterpriseInstall?: boolean | undefined;
}): InstallationKey {
  const enterpriseId = q.enterpriseId ?? '';
  return { platform: 'slack', enterpriseId, teamId: q.isEnterpriseInstall ? '' : (q.teamId ?? '') };
}
const associated = (k: InstallationKey) => `slack:${k.enterpriseId}:${k.teamId}`;

export function createSlackInstallations(deps: {
  repo: InstallationRepo;
  cipher: TokenCipher;
  clock: Clock;
  logger: Logger;
}): SlackInstallations {
  const { repo, cipher, clock } = deps;
  const log = deps.logger.child({ component: 'slack-installations' });

  async function load(key: InstallationKey): Promise<Installation | undefined> {
    const record = await repo.get(key);
    if (record === undefined) return undefined;
    return JSON.parse(cipher.open(record.sealed, associated(key))) as Installation;
  }

  async function find(q: {
    teamId?: string;
    enterpriseId?: string;
    isEnterpriseInstall?: boolean;
  }) {
    if (q.isEnterpriseInstall && q.enterpriseId) return load(keyOf(q));
    if (q.teamId === undefined)
      return q.enterpriseId ? load(keyOf({ ...q, isEnterpriseInstall: true })) : undefined;
    const enterpriseId = q.enterpriseId ?? (await repo.enterpriseOf('slack', q.teamId));
    const own = await load(keyOf({ teamId: q.teamId, enterpriseId }));
    if (own !== undefined || enterpriseId === undefined) return own;
    // A workspace of an organisation that installed the app org-wide.
    return load(keyOf({ enterpriseId, isEnterpriseInstall: true }));
  }

  const store: InstallationStore = {
    async storeInstallation(installation) {
      const isEnterpriseInstall = installation.isEnterpriseInstall === true;
      const key = keyOf({
        teamId: installation.team?.id,
        enterpriseId: installation.enterprise?.id,
        isEnterpriseInstall,
      });
      if (!isEnterpriseInstall && key.teamId === '')
        throw new NotInstalledError('an installation without a workspace');
      const expiring = [installation.bot, installation.user].some(
        (t) => t?.refreshToken !== undefined || t?.expiresAt !== undefined,
      );
      if (expiring) {
        log.warn(
          { teamId: key.teamId || undefined, enterpriseId: key.enterpriseId || undefined },
          'Slack install refused: the app has token rotation turned on',
        );
        throw new TokenRotationRefused();
      }
      const now = clock.now();
      await repo.save(
        {
          ...key,
          isEnterpriseInstall,
          sealed: cipher.seal(JSON.stringify(installation), associated(key)),
          installedBy: installation.user.id,
        },
        now,
      );
      if (key.enterpriseId !== '' && key.teamId !== '')
        await repo.linkTeam('slack', key.teamId, key.enterpriseId, now);
      log.info(
        {
          teamId: key.teamId || undefined,
          enterpriseId: key.enterpriseId || undefined,
          isEnterpriseInstall,
        },
        'Slack app installed',
      );
    },
    async fetchInstallation(query: InstallationQuery<boolean>) {
      const found = await find({
        ...(query.teamId === undefined ? {} : { teamId: query.teamId }),
        ...(query.enterpriseId === undefined ? {} : { enterpriseId: query.enterpriseId }),
        isEnterpriseInstall: query.isEnterpriseInstall,
      });
      if (found === undefined) throw new NotInstalledError('the app is not installed there');
      return found;
    },
    async deleteInstallation(query: InstallationQuery<boolean>) {
      await repo.remove(keyOf(query));
    },
  };

  return {
    store,
    async botFor(q) {
      const found = await find(q);
      const parsed = Stored.safeParse(found);
      if (!parsed.success || parsed.data.bot === undefined) return undefined;
      const { bot, team, enterprise } = parsed.data;
      return {
        token: bot.token,
        botUserId: bot.userId,
        ...(bot.id === undefined ? {} : { botId: bot.id }),
        ...(team === undefined ? {} : { teamId: team.id }),
        ...(enterprise === undefined ? {} : { enterpriseId: enterprise.id }),
        isEnterpriseInstall: parsed.data.isEnterpriseInstall === true,
      };
    },
    async remove(q) {
      const key = keyOf(q);
      const removed = await repo.remove(key);
      log.info(
        { teamId: key.teamId || undefined, enterpriseId: key.enterpriseId || undefined, removed },
        'Slack app uninstalled: its tokens are forgotten',
      );
      return removed;
    },
    async link(teamId, enterpriseId) {
      if ((await repo.enterpriseOf('slack', teamId)) === enterpriseId) return;
      await repo.linkTeam('slack', teamId, enterpriseId, clock.now());
    },
  };
}
