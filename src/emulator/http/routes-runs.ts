/**
 * The contract's run endpoints (relative to /api/v1).
 */
import type { EmulatorCore } from '../model/emulator-core.js';
import type { Route, RouteRequest } from './http-io.js';
import { EmulatorProblem } from './problem.js';
import { toRunItem } from '../model/run-item.js';
import { listRuns, parseListQuery } from '../model/run-query.js';
import { FollowupBodySchema, parseBody, validateCreateRequest } from './request-validation.js';
import type { EmuRun } from '../model/types.js';
import { isBlockedState, isEndedState } from '../../agent/schemas.js';

export function findRun(core: EmulatorCore, runId: string | undefined): EmuRun {
  core.now();
  const run = runId === undefined ? undefined : core.store.get(runId);
  if (!run) throw new EmulatorProblem(404, 'resource_not_found', `no run with id ${runId ?? ''}`);
  return run;
}

/** The faults the run routes consult: capacity, off-spec items, the metadata filter. */
export interface CapacityModel {
  takeAtCapacity(): boolean;
  offSpecPatch?(runId: string): Record<string, unknown> | undefined;
  isMetadataFilterUnavailable?(): boolean;
}

/** The wire item, with the run's off-spec patch when a fault set one. */
function wireItem(run: EmuRun, url: string, capacity: CapacityModel): Record<string, unknown> {
  const item: Record<string, unknown> = { ...toRunItem(run, url) };
  const patch = capacity.offSpecPatch?.(run.runId);
  if (patch) {
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) delete item[key];
      else item[key] = value;
    }
  }
  return item;
}

/**
 * Where a follow-up went, by the run's state when it arrived (the published `outcome`): into
 * the running agent, queued behind the agent that is starting, held until the queued run
 * starts, or a new execution of an ended or BLOCKED run.
 */
export function followupOutcome(state: string): string {
  if (isEndedState(state) || isBlockedState(state)) return 'handoff_execution';
  if (state === 'INPROGRESS') return 'live_session';
  return state === 'CLAIMED' ? 'queued_prompt' : 'queue_pending';
}

export function runRoutes(core: EmulatorCore, capacity: CapacityModel): Route[] {
  const create = (req: RouteRequest) => {
    const request = validateCreateRequest(req.body);
    // The published rule: the parent must exist (and be visible), or the create is a 400.
    if (request.parent_run_id !== undefined && !core.store.get(request.parent_run_id)) {
      throw new EmulatorProblem(400, 'invalid_request', `no parent run ${request.parent_run_id}`);
    }
    const run = core.createRun(request);
    // A full service still takes the run (it waits in QUEUED) and says so.
    const atCapacity = capacity.takeAtCapacity();
    return {
      status: 200,
      json: { run_id: run.runId, state: run.state, task_id: run.runId, at_capacity: atCapacity },
    };
  };
  return [
    { method: 'POST', path: '/agent/run', handle: create },
    { method: 'POST', path: '/agent/runs', handle: create },
    {
      method: 'GET',
      path: '/agent/runs',
      handle(req) {
        const query = parseListQuery(req.query);
        if (query.metadata.length > 0 && capacity.isMetadataFilterUnavailable?.()) {
          throw new EmulatorProblem(
            403,
            'feature_not_available',
            'metadata filtering is not enabled for this team',
            { retryable: false },
          );
        }
        core.now();
        const page = listRuns(core.store, query);
        const url = core.url();
        return {
          status: 200,
          json: {
            runs: page.runs.map((r) => wireItem(r, url, capacity)),
            page_info: {
              has_next_page: page.nextCursor !== undefined,
              ...(page.nextCursor ? { next_cursor: page.nextCursor } : {}),
            },
          },
        };
      },
    },
    {
      method: 'GET',
      path: '/agent/runs/:id',
      handle: (req) => ({
        status: 200,
        json: wireItem(findRun(core, req.params.id), core.url(), capacity),
      }),
    },
    {
      method: 'POST',
      path: '/agent/runs/:id/followups',
      handle(req) {
        const run = findRun(core, req.params.id);
        const body = parseBody(FollowupBodySchema, req.body);
        // In a setup failure's debug window the message reaches the retained session at once.
        const outcome = core.inDebugWindow(run) ? 'live_session' : followupOutcome(run.state);
        const followupId = core.followup(run, body.message, body.mode);
        return { status: 200, json: { followup_id: followupId, outcome } };
      },
    },
    {
      method: 'POST',
      path: '/agent/runs/:id/cancel',
      handle(req) {
        const run = findRun(core, req.params.id);
        core.cancel(run);
        return { status: 200, json: run.runId };
      },
    },
    {
      method: 'POST',
      path: '/agent/runs/:id/interrupt',
      handle(req) {
        const run = findRun(core, req.params.id);
        core.interrupt(run);
        return { status: 202, json: { run_id: run.runId, state: run.state } };
      },
    },
  ];
}
