/**
 * Linear as a platform: its notifier (agent activities, and the keep-alives the runs' session
 * keeper queues every `keepAliveMs` of quiet), its access answer (who administers a workspace, asked by the runs for a `config`
 * change), the
 * webhook route, whose refused sessions are told why through the outbox, and, when on, the
 * OAuth install.
 */
import { decodeThreadKey } from '../core/thread-key.js';
import type { PlatformDeps, PlatformModule } from '../platform/contract.js';
import { webhookRoute } from '../platform/webhook-endpoint.js';
import { createTokenCipher } from '../platform/token-cipher.js';
import { createOutboxRefusalSink } from '../platform/refusals.js';
import type { Route } from '../platform/route.js';
import { whoseToken } from './api/oauth.js';
import { createLinearIngress, LINEAR_BODY_LIMIT_BYTES } from './ingress/linear-ingress.js';
import { createOrganizationGate } from './ingress/organization-gate.js';
import { createLinearInstallations } from './install/installations.js';
import {
  createLinearOAuthRoutes,
  LINEAR_INSTALL_PATH,
  LINEAR_REDIRECT_PATH,
} from './install/oauth-routes.js';
import { createLinearNotifier, DEFAULT_KEEP_ALIVE_MS } from './notify/notifier.js';

const ADMIN_NEED = 'administer this Linear workspace';

export function createLinear(deps: PlatformDeps): PlatformModule | undefined {
  const { config, clock, logger } = deps;
  const o = deps.overrides ?? {};
  const linear = config.linear;
  if (!linear) return undefined;

  const installations = linear.oauth
    ? createLinearInstallations({
        repo: deps.store.installations,
        cipher: createTokenCipher(linear.oauth.encryptionKey),
        logger,
        clock,
        client: {
          apiUrl: linear.apiUrl,
          clientId: linear.oauth.clientId,
          clientSecret: linear.oauth.clientSecret,
        },
        leases: deps.store.leases,
      })
    : undefined;
  const notifier = createLinearNotifier({
    apiUrl: linear.apiUrl,
    ...(linear.token === undefined ? {} : { token: linear.token }),
    ...(installations
      ? {
          tokenFor: (org: string) => installations.tokenFor(org),
          renewToken: (org: string, rejected: string) => installations.renew(org, rejected),
        }
      : {}),
    logger,
    clock,
    sessions: deps.store.linearSessions,
  });

  return {
    name: 'linear',
    notifier,
    keepAliveMs: o.linearKeepAliveMs ?? DEFAULT_KEEP_ALIVE_MS,
    access: {
      // Who may act was decided by the ingress (workspaces, teams); who may change a team's
      // defaults is a workspace admin, asked of Linear now, after the acknowledgement.
      async checkPlace({ threadKey, person, wants }) {
        if (wants === 'act') return { kind: 'allowed' };
        const place = decodeThreadKey(threadKey);
        if (place?.platform !== 'linear') return { kind: 'refused', need: ADMIN_NEED };
        return (await notifier.isAdmin(place.organization, person))
          ? { kind: 'allowed' }
          : { kind: 'refused', need: ADMIN_NEED };
      },
    },
    routes({ sink, wakeOutbox }) {
      const routes: Route[] = [];
      if (linear.oauth && installations) {
        const oauth = createLinearOAuthRoutes({
          clientId: linear.oauth.clientId,
          clientSecret: linear.oauth.clientSecret,
          apiUrl: linear.apiUrl,
          allowedOrganizations: linear.oauth.allowedOrganizations,
          ...(linear.oauth.redirectUri ? { redirectUri: linear.oauth.redirectUri } : {}),
          installations,
          useStateOnce: (state: string, expiresAt: number) =>
            deps.store.usedOnce.use(`linear:${state}`, expiresAt, deps.clock.now()),
          ...(o.linearAuthorizationUrl === undefined
            ? {}
            : { authorizationUrl: o.linearAuthorizationUrl }),
          clock,
          logger,
        });
        routes.push(
          { path: LINEAR_INSTALL_PATH, methods: ['GET'], handler: (q, s) => oauth.install(q, s) },
          { path: LINEAR_REDIRECT_PATH, methods: ['GET'], handler: (q, s) => oauth.redirect(q, s) },
        );
      }
      const webhooks = createLinearIngress({
        secret: linear.webhookSecret,
        allowedTeams: linear.allowedTeams,
        organizations: createOrganizationGate({
          allowedOrganizations: linear.allowedOrganizations,
          ...(linear.token === undefined ? {} : { token: linear.token }),
          ...(installations
            ? {
                tokenFor: (org: string) => installations.tokenFor(org),
                renewToken: (org: string, rejected: string) => installations.renew(org, rejected),
              }
            : {}),
          whoseToken: (token: string) => whoseToken(linear.apiUrl, token),
          clock,
        }),
        sink,
        logger,
        clock,
        refusals: createOutboxRefusalSink({ store: deps.store, clock, onQueued: wakeOutbox }),
      });
      routes.push(webhookRoute('linear', LINEAR_BODY_LIMIT_BYTES, webhooks));
      return routes;
    },
    async start() {},
    async stop() {},
    async close() {},
  };
}
