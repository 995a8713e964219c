/**
 * The runs list (`/console`): the store's runs, filtered by state, platform, place and person,
 * newest first or by cost, with the service's links and run time for the recent ones; a
 * viewer sees runs in public places only.
 */
import { maySee } from './viewer-scope.js';
import type {
  AgentService,
  Logger,
  OperatorQueries,
  RunFilter,
  RunItem,
} from '../core/ports/index.js';
import { sendPage } from './page-response.js';
import type { PageHandler } from './page-response.js';
import { runsBody, runsPage } from './pages/runs-page.js';

const PAGE_SIZE = 100;
const DETAIL_TTL_MS = 3_000;

export function createRunsRoute(deps: {
  operator: OperatorQueries;
  agent: AgentService;
  githubWebUrl: string;
  isPublic: (threadKey: string) => Promise<boolean>;
  now: () => number;
  log: Logger;
}): PageHandler {
  const { operator, isPublic, now, log } = deps;

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

  return async function showRuns(req, res, url, ctx) {
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
      operator.listRuns({
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
              listed.map(async (r) => ((await maySee(ctx, r.threadKey, isPublic)) ? r : undefined)),
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
    sendPage(req, res, ctx, view, runsPage, runsBody);
  };
}
