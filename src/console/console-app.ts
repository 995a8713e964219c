/**
 * The operator console under `/console` on the one HTTP server: sign-in, the runs, one run,
 * the queues, Retry/Discard, and live updates. Every page but the sign-in page needs a
 * session (kept in the store, its grounds re-checked against the settings at each request);
 * every action needs the operator role, the session's CSRF token and a same-origin request,
 * and is logged with who did it. A viewer sees runs started in public places only, and no
 * queues and no actions.
 */
import { viewerTenant } from './viewer-scope.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ConsoleConfig } from '../config/load.js';
import type { AgentService, Clock, Logger, Metrics, Store } from '../core/ports/index.js';
import type { Route } from '../service/http-server.js';
import { withoutResult } from './action-result.js';
import { CONSOLE_CSS, CONSOLE_JS } from './assets.js';
import { readCookies } from './cookies.js';
import { createGivenUpRoutes } from './given-up-routes.js';
import { githubProvider, slackProvider } from './identity-providers.js';
import type { IdentityProvider } from './identity-providers.js';
import { createLiveHub } from './live.js';
import { createLocalAdminLink, LOCAL_ADMIN_PATH } from './local-admin.js';
import type { PageContext } from './pages/layout.js';
import { DISCARD_PATH } from './pages/given-up-actions.js';
import { createPlacesRoute } from './places-route.js';
import { createPublicPlaces } from './public-places.js';
import { createQueuesRoute } from './queues-route.js';
import { redirect, sendText } from './respond.js';
import { createRunRoute } from './run-route.js';
import { createRunsRoute } from './runs-route.js';
import { createSessionSigner, createSessions } from './session.js';
import type { Session } from './session.js';
import { standingOf } from './session-standing.js';
import { createSignInRoutes, safeNext, SESSION_COOKIE } from './sign-in-routes.js';

export interface ConsoleDeps {
  config: ConsoleConfig;
  store: Store;
  agent: AgentService;
  logger: Logger;
  clock: Clock;
  metrics: Metrics;
  /** Wake the workers after a Retry, so the item goes now rather than at their next poll. */
  wake: { inbox(): void; outbox(): void };
  /** Where issue links point (`https://github.com`, or a GitHub Enterprise Server). */
  githubWebUrl: string;
  /** The listening URL, once bound (the public URL when CONSOLE_PUBLIC_URL is unset). */
  listeningUrl: () => string;
  /** How often open pages' store is checked for changes (default 1000 ms). */
  livePollMs?: number;
  /**
   * Whether a Slack user is a guest; undefined when it cannot be told. Unset: workspace
   * members are not let in (only people named in CONSOLE_SLACK_USERS).
   */
  slackGuest?: (team: string, user: string) => Promise<boolean | undefined>;
  /**
   * Whether a thread's place (channel, repository) is public. Unset, or when it cannot be
   * told: not public (viewers do not see its runs).
   */
  placeIsPublic?: (threadKey: string) => Promise<boolean>;
}

export interface OperatorConsole {
  route: Route;
  /** The one-time local admin token, when the link is on. */
  adminToken?: string;
  close(): void;
}

/** The printed form carries the token as the last segment; the older form as `?token=`. */
const LOCAL_ADMIN_ROUTE = new RegExp(`^${LOCAL_ADMIN_PATH}(?:/([^/]+))?$`);

class MalformedInput extends Error {
  override readonly name = 'MalformedInput';
}

export function createConsole(deps: ConsoleDeps): OperatorConsole {
  const { config, store, logger } = deps;
  const { operator, consoleSessions, usedOnce, loginPins } = store;
  const log = logger.child({ component: 'console' });
  const now = () => deps.clock.now();
  const publicUrl = () => config.publicUrl ?? deps.listeningUrl();
  const secure = () => publicUrl().startsWith('https:');
  const signer = createSessionSigner(
    config.session.secret ? { secret: config.session.secret } : {},
  );
  const sessions = createSessions({
    repo: consoleSessions,
    lifetimeMs: config.session.hours * 3_600_000,
  });
  const providers: IdentityProvider[] = [
    ...(config.slack ? [slackProvider(config.slack)] : []),
    ...(config.github ? [githubProvider(config.github)] : []),
  ];
  const adminLink = config.adminLink
    ? createLocalAdminLink({ now: now(), lifetimeMs: config.adminLinkMinutes * 60_000 })
    : undefined;
  const live = createLiveHub({
    changeStamp: () => operator.changeStamp(),
    logger: log,
    pollMs: deps.livePollMs ?? 1_000,
  });
  let signIn: ReturnType<typeof createSignInRoutes> | undefined;
  const signInRoutes = () =>
    (signIn ??= createSignInRoutes({
      providers,
      ...(adminLink ? { adminLink } : {}),
      signer,
      sessions,
      useOnce: (key, expiresAt) => usedOnce.use(key, expiresAt, now()),
      pinLogin: (login, accountId) => loginPins.pin(login, accountId, now()),
      ...(deps.slackGuest ? { slackGuest: deps.slackGuest } : {}),
      logger: log,
      now,
      secure: secure(),
      sessionMaxAgeSec: config.session.hours * 3600,
      publicUrl,
    }));

  const isPublic = createPublicPlaces({ placeIsPublic: deps.placeIsPublic, now, log });
  const pages = { operator, githubWebUrl: deps.githubWebUrl, isPublic, log };
  const showRuns = createRunsRoute({ ...pages, agent: deps.agent, now });
  const showRun = createRunRoute({ ...pages, store, agent: deps.agent });
  const showPlaces = createPlacesRoute({ operator, store, isPublic });
  const showQueues = createQueuesRoute({ operator, githubWebUrl: deps.githubWebUrl });
  const givenUp = createGivenUpRoutes({
    operator,
    now,
    log,
    metrics: deps.metrics,
    wake: deps.wake,
  });

  /** The request's live session, with the role its grounds still give; ended when none. */
  async function currentSession(req: IncomingMessage): Promise<Session | undefined> {
    const found = await sessions.find(readCookies(req).get(SESSION_COOKIE), now());
    if (!found) return undefined;
    const role = standingOf(found, config);
    if (role === undefined) {
      await sessions.end(found);
      log.info(
        { operator: found.operator.id, grounds: found.grounds },
        'console: session ended (no longer allowed by the settings)',
      );
      return undefined;
    }
    return { ...found, role };
  }

  /** A POST must come from a console page: same origin when the browser says, and the token. */
  function sameOrigin(req: IncomingMessage): boolean {
    const origin = req.headers.origin;
    if (origin === undefined) return true;
    const host = req.headers.host;
    return (
      origin === new URL(publicUrl()).origin ||
      (host !== undefined && (origin === `http://${host}` || origin === `https://${host}`))
    );
  }

  /** Malformed input (a URL that does not parse or decode) gets 400, never a 500. */
  async function handle(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
    try {
      await serve(req, res, body);
    } catch (err) {
      if (!(err instanceof MalformedInput || err instanceof URIError)) throw err;
      log.debug({ path: req.url?.slice(0, 200) }, 'console: malformed request');
      if (!res.headersSent) sendText(res, 400, 'Malformed request.');
      else res.end();
    }
  }

  async function serve(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
    const raw = req.url ?? '/console';
    if (!/^\/[\x21-\x7e]*$/.test(raw) || raw.startsWith('//') || raw.length > 4096)
      throw new MalformedInput();
    const url = new URL(raw, 'http://console.invalid');
    const path = url.pathname.replace(/\/+$/, '') || '/console';
    const method = req.method ?? 'GET';
    const get = method === 'GET' || method === 'HEAD';
    const routes = signInRoutes();

    if (get && path === '/console/assets/console.css')
      return sendText(res, 200, CONSOLE_CSS, 'text/css');
    if (get && path === '/console/assets/console.js')
      return sendText(res, 200, CONSOLE_JS, 'text/javascript');
    if (get && path === '/console/signin') return routes.page(res, url);
    const local = LOCAL_ADMIN_ROUTE.exec(path);
    if (get && local) return routes.local(req, res, local[1] ?? url.searchParams.get('token'));
    const signInMatch = /^\/console\/signin\/(slack|github)(\/callback)?$/.exec(path);
    const provider = providers.find((p) => p.name === signInMatch?.[1]);
    if (get && signInMatch && provider) {
      if (signInMatch[2]) return routes.callback(res, provider, url, readCookies(req));
      return routes.start(res, provider, url);
    }

    const session = await currentSession(req);
    if (!session) {
      if (get && path !== '/console/events' && req.headers['x-console-partial'] === undefined)
        return redirect(
          res,
          `/console/signin?${new URLSearchParams({ next: safeNext(url.pathname + url.search) }).toString()}`,
        );
      return sendText(res, 401, 'Sign in first.');
    }

    if (method === 'POST') {
      const form = new URLSearchParams(body.toString('utf8'));
      if (!sameOrigin(req) || !sessions.checkCsrf(session, form.get('csrf'))) {
        log.warn(
          { operator: session.operator.id, path },
          'console: action refused (CSRF check failed)',
        );
        return sendText(res, 403, 'This form is stale or came from another site; reload the page.');
      }
      if (path === '/console/signout') return routes.signOut(res, session);
      if (path === '/console/actions') {
        if (session.role !== 'operator') {
          log.warn(
            { operator: session.operator.id, role: session.role, path },
            'console: action refused (viewers cannot act)',
          );
          return sendText(res, 403, 'Only operators may retry or discard.');
        }
        return givenUp.act(res, session, form);
      }
      return sendText(res, 404, 'Not found.');
    }
    if (!get) return sendText(res, 405, 'Method not allowed.');

    // Read before the page's data, so a change made while it is read shows as a new stamp.
    const stamp = path === '/console/events' ? '' : await operator!.changeStamp();
    const ctx: PageContext = {
      stamp,
      operator: session.operator,
      role: session.role,
      ...(session.role === 'operator' ? {} : tenantOfViewer(session.grounds)),
      csrf: session.csrf,
      now: now(),
      here: safeNext(withoutResult(url.pathname + url.search)),
    };
    if (path === '/console') return showRuns(req, res, url, ctx);
    if (path === '/console/places') return showPlaces(req, res, url, ctx);
    if (path === '/console/queues') {
      // Queued items carry prompts and replies from any place, private ones included.
      if (ctx.role !== 'operator') return sendText(res, 403, 'Only operators see the queues.');
      return showQueues(req, res, url, ctx);
    }
    if (path === DISCARD_PATH) {
      if (ctx.role !== 'operator') return sendText(res, 403, 'Only operators may discard.');
      return givenUp.askDiscard(req, res, url, ctx);
    }
    if (path === '/console/events') {
      live.attach(res);
      // The stream ends with the session (its reconnect then finds no session: 401); a
      // timer cannot wait longer than 2^31 - 1 ms, so a longer session ends its stream sooner.
      const left = Math.min(Math.max(0, session.expiresAt - now()), 2 ** 31 - 1);
      const expiry = setTimeout(() => res.end(), left);
      expiry.unref();
      res.on('close', () => clearTimeout(expiry));
      return;
    }
    const runMatch = /^\/console\/runs\/([^/]{1,200})$/.exec(path);
    if (runMatch?.[1]) return showRun(req, res, decodeURIComponent(runMatch[1]), ctx);
    return sendText(res, 404, 'Not found.');
  }

  return {
    route: { path: '/console', methods: ['GET', 'HEAD', 'POST'], prefix: true, handler: handle },
    ...(adminLink ? { adminToken: adminLink.token } : {}),
    close: () => live.close(),
  };
}

function tenantOfViewer(grounds: string): { tenant?: string } {
  const tenant = viewerTenant(grounds);
  return tenant === undefined ? {} : { tenant };
}
