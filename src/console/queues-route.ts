/**
 * The queues page (`/console/queues`, operators only): queue health, parked notifications and
 * failed triggers, and what the last action did.
 */
import type { OperatorQueries } from '../core/ports/index.js';
import { noticeOf } from './action-result.js';
import { sendPage } from './page-response.js';
import type { PageHandler } from './page-response.js';
import { queuesBody, queuesPage } from './pages/queues-page.js';

export function createQueuesRoute(deps: {
  operator: OperatorQueries;
  githubWebUrl: string;
}): PageHandler {
  const { operator } = deps;
  return async function showQueues(req, res, url, ctx) {
    const [health, parked, failed] = await Promise.all([
      operator.queueHealth(),
      operator.parkedNotifications(100),
      operator.failedTriggers(100),
    ]);
    const notice = noticeOf(url.searchParams);
    const view = {
      health,
      parked,
      failed,
      githubWebUrl: deps.githubWebUrl,
      ...(notice ? { notice } : {}),
    };
    sendPage(req, res, ctx, view, queuesPage, queuesBody);
  };
}
