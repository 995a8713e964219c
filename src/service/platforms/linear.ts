/**
 * Linear wired from the config: its notifier (agent activities; a keep-alive timer stopped at
 * shutdown), and its ingress: the webhook route, which asks the notifier whether a person is
 * an admin and tells a refused session why, and, when on, the OAuth install.
 */
import { stateView } from '../../core/message/state-view.js';
import type { Store, TriggerSink } from '../../core/ports/index.js';
import {
  createLinearIngress,
  createLinearInstallations,
  createLinearNotifier,
  createLinearOAuthRoutes,
  LINEAR_BODY_LIMIT_BYTES,
  LINEAR_INSTALL_PATH,
  LINEAR_REDIRECT_PATH,
} from '../../linear/index.js';
import type { LinearIngress, LinearNotifier, LinearOAuthRoutes } from '../../linear/index.js';
// The token cipher is the one Slack's installations use.
import { createTokenCipher } from '../../slack/index.js';
import type { Route } from '../http-server.js';
import type { PlatformDeps } from './platform-deps.js';

export interface LinearIngresses {
  linear?: LinearIngress;
  /** Linear OAuth install, when on. */
  linearOAuth?: LinearOAuthRoutes;
}

export interface LinearPlatform {
  /** Linear's notifier, when on (its keep-alive timer stops at shutdown). */
  notifier?: LinearNotifier;
  ingress(sink: TriggerSink): LinearIngresses;
}

/**
 * Whether the thread's current run is working (live, neither waiting nor ended), by the
 * store's record of it: the last word on it, even when the message that said so to Linear
 * has not been delivered.
 */
export async function currentRunWorks(
  store: Pick<Store, 'threads' | 'runs'>,
  threadKey: string,
): Promise<boolean> {
  const thread = await store.threads.get(await store.threads.resolve(threadKey));
  const run = thread?.currentRunId ? await store.runs.get(thread.currentRunId) : undefined;
  if (!run) return false;
  const state = stateView(run.state);
  return state.live && !state.blocked && !state.ended;
}

export function createLinearPlatform(deps: PlatformDeps): LinearPlatform {
  const { config, clock, logger } = deps;
  const o = deps.overrides ?? {};

  const linear = config.linear;
  const linearInstallations = linear?.oauth
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
  const linearNotifier = linear
    ? createLinearNotifier({
        apiUrl: linear.apiUrl,
        ...(linear.token === undefined ? {} : { token: linear.token }),
        ...(linearInstallations
          ? {
              tokenFor: (org: string) => linearInstallations.tokenFor(org),
              renewToken: (org: string, rejected: string) =>
                linearInstallations.renew(org, rejected),
            }
          : {}),
        logger,
        clock,
        ...(o.linearKeepAliveMs === undefined ? {} : { keepAliveMs: o.linearKeepAliveMs }),
        ...(deps.store.linearSessions ? { sessions: deps.store.linearSessions } : {}),
        runWorks: (threadKey: string) => currentRunWorks(deps.store, threadKey),
      })
    : undefined;

  return {
    ...(linearNotifier ? { notifier: linearNotifier } : {}),
    ingress(sink) {
      const linearIngress =
        linear && linearNotifier
          ? createLinearIngress({
              secret: linear.webhookSecret,
              allowedTeams: linear.allowedTeams,
              sink,
              logger,
              clock,
              metrics: deps.metrics,
              isAdmin: (organizationId, userId) => linearNotifier.isAdmin(organizationId, userId),
              onRefused: (sessionId, organizationId) => {
                const body =
                  "Agent runs aren't available for this team's issues here. Please ask whoever " +
                  'runs agent-relay to add the team to LINEAR_ALLOWED_TEAMS.';
                linearNotifier
                  .tell(organizationId, sessionId, { content: { type: 'error', body } })
                  .catch((err: unknown) =>
                    logger.warn(
                      { err, sessionId },
                      'could not tell a Linear session it was refused',
                    ),
                  );
              },
            })
          : undefined;
      const linearOAuth =
        linear?.oauth && linearInstallations
          ? createLinearOAuthRoutes({
              clientId: linear.oauth.clientId,
              clientSecret: linear.oauth.clientSecret,
              apiUrl: linear.apiUrl,
              allowedOrganizations: linear.oauth.allowedOrganizations,
              installations: linearInstallations,
              ...(deps.store.usedOnce
                ? {
                    useStateOnce: (state: string, expiresAt: number) =>
                      deps.store.usedOnce!.use(`linear:${state}`, expiresAt, deps.clock.now()),
                  }
                : {}),
              ...(o.linearAuthorizationUrl === undefined
                ? {}
                : { authorizationUrl: o.linearAuthorizationUrl }),
              clock,
              logger,
            })
          : undefined;
      return {
        ...(linearIngress ? { linear: linearIngress } : {}),
        ...(linearOAuth ? { linearOAuth } : {}),
      };
    },
  };
}

/** The OAuth install's two pages when on, and `POST /linear/webhooks`. */
export function linearRoutes({ linear, linearOAuth }: LinearIngresses): Route[] {
  const routes: Route[] = [];
  if (linearOAuth)
    routes.push(
      { path: LINEAR_INSTALL_PATH, methods: ['GET'], handler: (q, s) => linearOAuth.install(q, s) },
      {
        path: LINEAR_REDIRECT_PATH,
        methods: ['GET'],
        handler: (q, s) => linearOAuth.redirect(q, s),
      },
    );
  if (linear)
    routes.push({
      path: '/linear/webhooks',
      methods: ['POST'],
      bodyLimitBytes: LINEAR_BODY_LIMIT_BYTES,
      handler: (q, s, body) => linear.handle(q, s, body),
    });
  return routes;
}
