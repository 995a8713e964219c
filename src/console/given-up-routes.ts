/**
 * Retry and Discard of given-up items (parked notifications, failed triggers), one item or a
 * group: the action itself, each item logged with the operator and counted, and the page that
 * confirms a Discard. The caller has checked the operator role (and, for the action, the CSRF
 * token and origin).
 */
import type { ServerResponse } from 'node:http';
import type { GivenUpKind, Logger, Metrics, OperatorQueries } from '../core/ports/index.js';
import { withResult, withoutResult } from './action-result.js';
import type { ActionResult } from './action-result.js';
import { sendPage } from './page-response.js';
import type { PageHandler } from './page-response.js';
import { discardBody, discardPage } from './pages/discard-page.js';
import type { DiscardView } from './pages/discard-page.js';
import { MAX_GROUP, parseIds } from './pages/given-up-actions.js';
import { redirect, sendText } from './respond.js';
import type { Session } from './session.js';
import { consolePath, safeNext } from './sign-in-routes.js';

export function createGivenUpRoutes(deps: {
  operator: OperatorQueries;
  now: () => number;
  log: Logger;
  metrics: Metrics;
  /** Wake the workers after a Retry, so the item goes now rather than at their next poll. */
  wake: { inbox(): void; outbox(): void };
}): {
  act(res: ServerResponse, session: Session, form: URLSearchParams): Promise<void>;
  askDiscard: PageHandler;
} {
  const { operator, now, log } = deps;

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
          ? await operator.retry(kind as GivenUpKind, id, now())
          : await operator.discard(kind as GivenUpKind, id);
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
  const askDiscard: PageHandler = async (req, res, url, ctx) => {
    const kind = url.searchParams.get('kind');
    const ids = parseIds(url.searchParams);
    if ((kind !== 'notification' && kind !== 'trigger') || ids === undefined)
      return sendText(res, 400, 'Nothing to discard was named.');
    const wanted = new Set(ids);
    const [parked, failed] = await Promise.all([
      kind === 'notification' ? operator.parkedNotifications(MAX_GROUP * 2) : [],
      kind === 'trigger' ? operator.failedTriggers(MAX_GROUP * 2) : [],
    ]);
    const view: DiscardView = {
      kind,
      notifications: parked.filter((n) => wanted.has(n.id)),
      triggers: failed.filter((t) => wanted.has(t.id)),
      asked: ids.length,
      back: withoutResult(safeNext(url.searchParams.get('back') ?? '/console/queues')),
    };
    sendPage(req, res, ctx, view, discardPage, discardBody);
  };

  return { act, askDiscard };
}
