/**
 * One run (`/console/runs/{id}`): its record, state history, other runs of its thread, the
 * thread's triggers and notifications, and the service's own view of it. A viewer learns
 * nothing of a run in a private place, not even that it exists.
 */
import { maySee } from './viewer-scope.js';
import type { AgentService, Logger, OperatorQueries, RunItem, Store } from '../core/ports/index.js';
import { isServiceError } from '../core/ports/index.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PageContext } from './pages/layout.js';
import { sendPage } from './page-response.js';
import { runBody, runPage } from './pages/run-page.js';
import { sendText } from './respond.js';

export function createRunRoute(deps: {
  store: Pick<Store, 'runs'>;
  operator: OperatorQueries;
  agent: AgentService;
  githubWebUrl: string;
  isPublic: (threadKey: string) => Promise<boolean>;
  log: Logger;
}) {
  const { store, operator, isPublic, log } = deps;
  return async function showRun(
    req: IncomingMessage,
    res: ServerResponse,
    runId: string,
    ctx: PageContext,
  ): Promise<void> {
    const found = await store.runs.get(runId);
    // A viewer learns nothing of a run in a private place, not even that it exists.
    const run = found && (await maySee(ctx, found.threadKey, isPublic)) ? found : undefined;
    if (!run) return sendText(res, 404, `No run ${runId} is recorded here.`);
    const keys = await operator.aliasesOf(run.threadKey);
    const [history, items, others, own] = await Promise.all([
      operator.stateHistory(runId),
      operator.threadItems(keys, 50),
      store.runs.listByThread(run.threadKey, 20),
      operator.triggerOfRequest(run.requestId),
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
    sendPage(req, res, ctx, view, runPage, runBody);
  };
}
