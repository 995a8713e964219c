/**
 * What a run's agent is doing: its normalized conversation and its timeline (relative to
 * /api/v1). A run whose agent has not started has no conversation yet (404).
 */
import type { EmulatorCore } from '../model/emulator-core.js';
import { conversationOf } from '../model/conversation.js';
import { timelineOf } from '../model/timeline.js';
import type { EmulatorTimings } from '../model/types.js';
import type { Route } from './http-io.js';
import { EmulatorProblem } from './problem.js';
import { findRun } from './routes-runs.js';

export function progressRoutes(core: EmulatorCore, timings: EmulatorTimings): Route[] {
  return [
    {
      method: 'GET',
      path: '/agent/runs/:id/conversation',
      handle(req) {
        const run = findRun(core, req.params.id);
        const answer = conversationOf(run, core.store.followups, timings, core.now());
        if (answer.kind === 'none') {
          throw new EmulatorProblem(404, 'resource_not_found', 'the run has no conversation yet', {
            retryable: false,
          });
        }
        if (answer.kind === 'unsupported') {
          throw new EmulatorProblem(
            422,
            'operation_not_supported',
            'this conversation format is not yet supported by the normalized endpoint',
            { retryable: false },
          );
        }
        return { status: 200, json: answer.body };
      },
    },
    {
      method: 'GET',
      path: '/agent/runs/:id/timeline',
      handle(req) {
        const run = findRun(core, req.params.id);
        return { status: 200, json: { events: timelineOf(run, timings, core.now()) } };
      },
    },
  ];
}
