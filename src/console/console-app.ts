/**
 * The operator console under `/console` on the one HTTP server: sign-in, the runs, one run,
 * the queues, Retry/Discard, and live updates. Every page but the sign-in page needs a
 * session (kept in the store, its grounds re-checked against the settings at each request);
 * every action needs the operator role, the session's CSRF token and a same-origin request,
 * and is logged with who did it. A viewer sees runs started in public places only, and no
 * queues and no actions.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ConsoleConfig } from '../config/load.js';
import type {
  AgentService,
  Clock,
  GivenUpKind,
  Logger,
  Metrics,
  RunFilter,
  RunItem,
  Store,
} from '../core/ports/index.js';
import { isServiceError } from '../core/ports/index.js';
import type { Route } from '../service/http-server.js';
import { CONSOLE_CSS, CONSOLE_JS } from './assets.js';
import { readCookies } from './cookies.js';
import { githubProvider, slackProvider } from './identity-providers.js';
import type { IdentityProvider } from './identity-providers.js';
import { createLiveHub } from './live.js';
import { createLocalAdminLink } from './local-admin.js';
import type { Html } from './html.js';
import { content } from './pages/layout.js';
import type { PageContext } from './pages/layout.js';
import { queuesBody, queuesPage } from './pages/queues-page.js';
import { discardBody, discardPage } from './pages/discard-page.js';
import type { DiscardView } from './pages/discard-page.js';
import { DISCARD_PATH, MAX_GROUP, parseIds } from './pages/given-up-actions.js';
import { noticeOf, withResult, withoutResult } from './action-result.js';
import type { ActionResult } from './action-result.js';
import { runBody, runPage } from './pages/run-page.js';
import { runsBody, runsPage } from './pages/runs-page.js';
import { placesBody, placesPage } from './pages/places-page.js';
import { placeSpend } from './place-spend.js';
import { monthNameUtc, monthStartUtc } from '../core/place.js';
import { redirect, sendHtml, sendText } from './respond.js';
import { createSessionSigner, createSessions } from './session.js';
import type { Session } from './session.js';
import type { ConsoleRole } from '../core/ports/index.js';
import { consolePath, createSignInRoutes, safeNext, SESSION_COOKIE } from './sign-in-routes.js';

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

const PAGE_SIZE = 100;
const PUBLIC_TTL_MS = 5 * 60_000;

class MalformedInput extends Error {
  override readonly name = 'MalformedInput';
}
const DETAIL_TTL_MS = 3_000;

export function createConsole(deps: ConsoleDeps): OperatorConsole {
  const { config, store, logger } = deps;
  const operator = store.operator;
  const { consoleSessions, usedOnce, loginPins } = store;
  if (!operator || !consoleSessions || !usedOnce || !loginPins)
    throw new Error('this store does not answer the console queries');
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

  /**
   * The role a session still has under the current settings, or undefined when its grounds
   * are gone (the person or their workspace/organization was removed from the lists).
   */
  function standing(session: Session): ConsoleRole | undefined {
    const colon = session.grounds.indexOf(':');
    const kind = colon === -1 ? session.grounds : session.grounds.slice(0, colon);
    const value = colon === -1 ? '' : session.grounds.slice(colon + 1);
    const lower = (xs: readonly string[] | undefined) => (xs ?? []).map((x) => x.toLowerCase());
    let role: ConsoleRole | undefined;
    if (kind === 'local') role = config.adminLink ? 'operator' : undefined;
    else if (kind === 'user' && session.operator.via === 'slack')
      role = config.slack?.users.includes(value) ? 'operator' : undefined;
    else if (kind === 'user' && session.operator.via === 'github')
      role = lower(config.github?.users).includes(value) ? 'operator' : undefined;
    else if (kind === 'team') role = config.slack?.teams.includes(value) ? 'viewer' : undefined;
    else if (kind === 'org')
      role = lower(config.github?.orgs).includes(value) ? 'viewer' : undefined;
    if (role === undefined) return undefined;
    return role === 'operator' ? session.role : 'viewer';
  }

  /** Public places, as far as can be told, for a few minutes each (viewers see only these). */
  const publicCache = new Map<string, { at: number; open: boolean }>();
  async function isPublic(threadKey: string): Promise<boolean> {
    if (!deps.placeIsPublic) return false;
    const hit = publicCache.get(threadKey);
    if (hit && now() - hit.at < PUBLIC_TTL_MS) return hit.open;
    let open = false;
    try {
      open = await deps.placeIsPublic(threadKey);
    } catch (err) {
      log.debug({ err }, 'console: could not tell whether a place is public; taken as private');
    }
    if (publicCache.size > 10_000) publicCache.clear();
    publicCache.set(threadKey, { at: now(), open });
    return open;
  }

  // The service's view of recent runs (links, run time), read at most every few seconds.
  let details: { at: number; byId: Map<string, RunItem> } | undefined;
  async function recentDetails(): Promise<Map<string, RunItem>> {
    if (details && now() - details.at < DETAIL_TTL_MS) return details.byId;
    try {
      const page = await deps.agent.listRuns(
        { limit: PAGE_SIZE, sort_by: 'updated_at', sort_order: 'desc' },
        { timeoutMs: 2_000, maxRetries: 0 },
      );
      details = { at: now(), byId: new Map(page.runs.map((r) => [r.run_id, r])) };
    } catch (err) {
      log.debug({ err }, 'console: the service did not list runs; links left out');
      details = { at: now(), byId: details?.byId ?? new Map() };
    }
    return details.byId;
  }

  function page(
    req: IncomingMessage,
    res: ServerResponse,
    full: (ctx: PageContext) => Html,
    partial: (ctx: PageContext) => Html,
    ctx: PageContext,
  ): void {
    const wantsPartial = req.headers['x-console-partial'] === '1';
    sendHtml(res, 200, wantsPartial ? content(partial(ctx), ctx) : full(ctx));
  }

  async function showRuns(req: IncomingMessage, res: ServerResponse, url: URL, ctx: PageContext) {
    const q = (name: string) => url.searchParams.get(name)?.trim().slice(0, 200) || undefined;
    const platform = q('platform');
    const filter: Omit<RunFilter, 'limit'> = {
      ...(q('state') ? { state: q('state') } : {}),
      ...(platform === 'slack' || platform === 'github' || platform === 'linear'
        ? { platform }
        : {}),
      ...(q('place') ? { place: q('place') } : {}),
      ...(q('person') ? { person: q('person') } : {}),
    };
    const before = Number(q('before'));
    const byCost = q('sort') === 'cost';
    // Sorted by cost, the store sorts all runs and pages by position; else by time.
    const skip = Number(q('offset'));
    const offset = byCost && Number.isSafeInteger(skip) && skip > 0 ? skip : 0;
    if (!byCost && Number.isSafeInteger(before) && before > 0) filter.createdBefore = before;
    const [listed, byId] = await Promise.all([
      operator!.listRuns({
        ...filter,
        limit: PAGE_SIZE,
        ...(byCost ? { sort: 'cost' as const, offset } : {}),
      }),
      recentDetails(),
    ]);
    const runs =
      ctx.role === 'operator'
        ? listed
        : (
            await Promise.all(
              listed.map(async (r) => ((await isPublic(r.threadKey)) ? r : undefined)),
            )
          ).filter((r) => r !== undefined);
    const view = {
      runs,
      filter,
      details: byId,
      githubWebUrl: deps.githubWebUrl,
      ...(listed.length === PAGE_SIZE && !byCost
        ? { olderThan: listed[listed.length - 1]!.createdAt }
        : {}),
      ...(listed.length === PAGE_SIZE && byCost ? { nextOffset: offset + PAGE_SIZE } : {}),
      ...(byCost ? { sort: 'cost' as const } : {}),
    };
    page(
      req,
      res,
      (c) => runsPage(view, c),
      (c) => runsBody(view, c),
      ctx,
    );
  }

  async function showPlaces(req: IncomingMessage, res: ServerResponse, url: URL, ctx: PageContext) {
    const sort = url.searchParams.get('sort') === 'place' ? 'place' : 'spend';
    const places = await placeSpend(
      { operator: operator!, store },
      monthStartUtc(ctx.now),
      (threadKey) => (ctx.role === 'operator' ? Promise.resolve(true) : isPublic(threadKey)),
      sort,
    );
    const view = { places, month: monthNameUtc(ctx.now), sort } as const;
    page(
      req,
      res,
      (c) => placesPage(view, c),
      (c) => placesBody(view, c),
      ctx,
    );
  }

  async function showRun(
    req: IncomingMessage,
    res: ServerResponse,
    runId: string,
    ctx: PageContext,
  ) {
    const found = await store.runs.get(runId);
    // A viewer learns nothing of a run in a private place, not even that it exists.
    const run =
      found && (ctx.role === 'operator' || (await isPublic(found.threadKey))) ? found : undefined;
    if (!run) return sendText(res, 404, `No run ${runId} is recorded here.`);
    const keys = await operator!.aliasesOf(run.threadKey);
    const [history, items, others, own] = await Promise.all([
      operator!.stateHistory(runId),
      operator!.threadItems(keys, 50),
      store.runs.listByThread(run.threadKey, 20),
      operator!.triggerOfRequest(run.requestId),
    ]);
    // A slash command's trigger is kept under its channel, not the run's thread: add it.
    const triggers =
      own === undefined || items.triggers.some((t) => t.id === own.id)
        ? items.triggers
        : [...items.triggers, own].sort((a, b) => b.id - a.id);
    let detail: RunItem | undefined;
    let detailProblem: string | undefined;
    try {
      detail = await deps.agent.getRun(runId, { timeoutMs: 3_000, maxRetries: 0 });
    } catch (err) {
      detailProblem =
        isServiceError(err) && err.code === 'not_found'
          ? 'the Agent Run Service does not know this run (any more)'
          : 'the Agent Run Service did not answer; links are missing';
      log.debug({ err, runId }, 'console: run detail unavailable');
    }
    const view = {
      run,
      ...(detail ? { detail } : {}),
      ...(detailProblem ? { detailProblem } : {}),
      history,
      otherRuns: others.filter((r) => r.runId !== runId),
      triggers,
      notifications: items.notifications,
      githubWebUrl: deps.githubWebUrl,
    };
    page(
      req,
      res,
      (c) => runPage(view, c),
      (c) => runBody(view, c),
      ctx,
    );
  }

  async function showQueues(req: IncomingMessage, res: ServerResponse, url: URL, ctx: PageContext) {
    const [health, parked, failed] = await Promise.all([
      operator!.queueHealth(),
      operator!.parkedNotifications(100),
      operator!.failedTriggers(100),
    ]);
    const notice = noticeOf(url.searchParams);
    const view = {
      health,
      parked,
      failed,
      githubWebUrl: deps.githubWebUrl,
      ...(notice ? { notice } : {}),
    };
    page(
      req,
      res,
      (c) => queuesPage(view, c),
      (c) => queuesBody(view, c),
      ctx,
    );
  }

  /** Retry or Discard one item (`id`) or a group (`ids=1,2,3`), each logged and counted. */
  async function act(res: ServerResponse, session: Session, form: URLSearchParams) {
    const kind = form.get('kind');
    const action = form.get('action');
    const ids = parseIds(form);
    if (
      (kind !== 'notification' && kind !== 'trigger') ||
      (action !== 'retry' && action !== 'discard') ||
      ids === undefined
    )
      return sendText(res, 400, 'Unknown action.');
    const back = form.get('back');
    if (back !== null && consolePath(back) === undefined)
      return sendText(res, 400, 'The page to go back to is not a console page.');
    let done = 0;
    for (const id of ids) {
      const did =
        action === 'retry'
          ? await operator!.retry(kind as GivenUpKind, id, now())
          : await operator!.discard(kind as GivenUpKind, id);
      if (did) done += 1;
      const who = session.operator;
      log.info(
        { operator: who.id, operatorName: who.name, action, kind, itemId: id, done: did },
        `console: ${action} of ${kind} ${id} by ${who.name}${did ? '' : ' (nothing to do: it is no longer given up)'}`,
      );
      deps.metrics.inc('console_actions', {
        kind: `${action}_${kind}`,
        outcome: did ? 'done' : 'gone',
      });
    }
    if (done > 0 && action === 'retry') (kind === 'trigger' ? deps.wake.inbox : deps.wake.outbox)();
    const to = safeNext(form.get('back'));
    // A Discard, and any action on a group, says on the page what it did.
    const tell = action === 'discard' || form.has('ids');
    redirect(
      res,
      tell ? withResult(to, { action, kind, done, asked: ids.length } as ActionResult) : to,
    );
  }

  /** The confirmation page of a Discard: what it would delete, and what that means. */
  async function askDiscard(req: IncomingMessage, res: ServerResponse, url: URL, ctx: PageContext) {
    const kind = url.searchParams.get('kind');
    const ids = parseIds(url.searchParams);
    if ((kind !== 'notification' && kind !== 'trigger') || ids === undefined)
      return sendText(res, 400, 'Nothing to discard was named.');
    const wanted = new Set(ids);
    const [parked, failed] = await Promise.all([
      kind === 'notification' ? operator!.parkedNotifications(MAX_GROUP * 2) : [],
      kind === 'trigger' ? operator!.failedTriggers(MAX_GROUP * 2) : [],
    ]);
    const view: DiscardView = {
      kind,
      notifications: parked.filter((n) => wanted.has(n.id)),
      triggers: failed.filter((t) => wanted.has(t.id)),
      asked: ids.length,
      back: withoutResult(safeNext(url.searchParams.get('back') ?? '/console/queues')),
    };
    page(
      req,
      res,
      (c) => discardPage(view, c),
      (c) => discardBody(view, c),
      ctx,
    );
  }

  /** The request's live session, with the role its grounds still give; ended when none. */
  async function currentSession(req: IncomingMessage): Promise<Session | undefined> {
    const found = await sessions.find(readCookies(req).get(SESSION_COOKIE), now());
    if (!found) return undefined;
    const role = standing(found);
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
    if (get && path === '/console/signin/local') return routes.local(req, res, url);
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
        return act(res, session, form);
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
      return askDiscard(req, res, url, ctx);
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
