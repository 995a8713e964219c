/**
 * Linear workspaces the app was installed in (OAuth, `actor=app`): the token of each, sealed
 * before it reaches the store (AES-256-GCM with LINEAR_TOKEN_ENCRYPTION_KEY, bound to the
 * organization id), opened when the notifier writes into that workspace.
 */
import type { InstallationRepo, Logger } from '../../core/ports/index.js';

export interface TokenSeal {
  seal(plain: string, associated: string): string;
  open(sealed: string, associated: string): string;
}

export interface LinearInstallations {
  save(
    input: { organizationId: string; token: string; installedBy?: string },
    now: number,
  ): Promise<void>;
  tokenFor(organizationId: string): Promise<string | undefined>;
}

const key = (organizationId: string) => ({
  platform: 'linear' as const,
  enterpriseId: '',
  teamId: organizationId,
});

export function createLinearInstallations(deps: {
  repo: InstallationRepo;
  cipher: TokenSeal;
  logger: Logger;
}): LinearInstallations {
  const log = deps.logger.child({ component: 'linear-installations' });
  return {
    async save(input, now) {
      await deps.repo.save(
        {
          ...key(input.organizationId),
          isEnterpriseInstall: false,
          sealed: deps.cipher.seal(input.token, `linear:${input.organizationId}`),
          ...(input.installedBy ? { installedBy: input.installedBy } : {}),
        },
        now,
      );
    },
    async tokenFor(organizationId) {
      const record = await deps.repo.get(key(organizationId));
      if (!record) return undefined;
      try {
        return deps.cipher.open(record.sealed, `linear:${organizationId}`);
      } catch (err) {
        log.error(
          { organizationId, err: (err as Error).message },
          'cannot open a sealed Linear token',
        );
        return undefined;
      }
    },
  };
}
