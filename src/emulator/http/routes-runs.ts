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

export function findRun(core: EmulatorCore, runId: string | undefined): EmuRun {
  core.now();
  const run = runId === undefined ? undefined : core.store.get(runId);
  if (!run) throw new EmulatorProblem(404, 'resource_not_found', `no run with id ${runId ?? ''}`);
  return run;
}

/** Whether the next created run is accepted by a full service (the faults' count). */
export interface CapacityModel {
  takeAtCapacity(): boolean;
}

export function runRoutes(core: EmulatorCore, capacity: CapacityModel): Route[] {
  const create = (req: RouteRequest) => {
    const run = core.createRun(validateCreateRequest(req.body));
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
        core.now();
        const page = listRuns(core.store, query);
        const url = core.url();
        return {
          status: 200,
          json: {
            runs: page.runs.map((r) => toRunItem(r, url)),
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
      handle: (req) => ({ status: 200, json: toRunItem(findRun(core, req.params.id), core.url()) }),
    },
    {
      method: 'POST',
      path: '/agent/runs/:id/followups',
      handle(req) {
        const run = findRun(core, req.params.id);
        const body = parseBody(FollowupBodySchema, req.body);
        core.followup(run, body.message, body.mode);
        return { status: 200, json: {} };
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
  ];
}
