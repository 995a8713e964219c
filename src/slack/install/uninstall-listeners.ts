/**
 * A workspace (or organisation) that removes the app, or revokes its bot token, is
 * forgotten at once: its sealed installation is deleted, so nothing is sent there again.
 * Bolt lets these two events through without authorizing them (the token is already gone).
 */
import type { SlackRoutes } from '../api/routes.js';
import { z } from 'zod';
import type { Logger } from '../../core/ports/index.js';
import type { SlackInstallations } from './installations.js';

const Envelope = z.object({
  team_id: z.string().optional(),
  enterprise_id: z.string().nullish(),
  is_enterprise_install: z.boolean().optional(),
  authorizations: z
    .array(
      z.object({
        team_id: z.string().nullish(),
        enterprise_id: z.string().nullish(),
        is_enterprise_install: z.boolean().optional(),
      }),
    )
    .optional(),
});
const TokensRevoked = z.object({
  tokens: z.object({ bot: z.array(z.string()).optional() }).default({}),
});

function installationOf(body: unknown) {
  const e = Envelope.safeParse(body);
  if (!e.success) return undefined;
  const auth = e.data.authorizations?.[0];
  const isEnterpriseInstall = auth?.is_enterprise_install ?? e.data.is_enterprise_install ?? false;
  const enterpriseId = auth?.enterprise_id ?? e.data.enterprise_id ?? undefined;
  const teamId = auth?.team_id ?? e.data.team_id ?? undefined;
  return {
    isEnterpriseInstall,
    ...(enterpriseId ? { enterpriseId } : {}),
    ...(teamId ? { teamId } : {}),
  };
}

export function registerUninstallListeners(
  routes: SlackRoutes,
  deps: { installations: SlackInstallations; logger: Logger },
): void {
  const log = deps.logger.child({ component: 'slack-uninstall' });
  routes.event('app_uninstalled', async ({ body }) => {
    const which = installationOf(body);
    if (which === undefined) return log.warn({}, 'app_uninstalled payload not understood');
    await deps.installations.remove(which);
  });
  routes.event('tokens_revoked', async ({ body, event }) => {
    const which = installationOf(body);
    const revoked = TokensRevoked.safeParse(event);
    if (which === undefined || !revoked.success)
      return log.warn({}, 'tokens_revoked payload not understood');
    // Only user tokens revoked: the bot still works.
    if ((revoked.data.tokens.bot ?? []).length === 0) return;
    await deps.installations.remove(which);
  });
}
