/**
 * `GET /agent/artifacts/{artifactUid}` (relative to /api/v1): a plan artifact's current
 * markdown, in the published `PlanArtifactResponse` shape. The emulator keeps no file or
 * screenshot artifacts, so any other uid is the published 404.
 */
import type { EmulatorCore } from '../model/emulator-core.js';
import { planArtifactResponse } from '../model/plan.js';
import type { Route } from './http-io.js';
import { EmulatorProblem } from './problem.js';

export function artifactRoutes(core: EmulatorCore): Route[] {
  return [
    {
      method: 'GET',
      path: '/agent/artifacts/:uid',
      handle(req) {
        core.now();
        const uid = req.params.uid ?? '';
        for (const run of core.store.all()) {
          if (run.plan?.artifactUid === uid) {
            return { status: 200, json: planArtifactResponse(run, run.plan, core.url()) };
          }
        }
        throw new EmulatorProblem(404, 'resource_not_found', `no artifact with id ${uid}`, {
          retryable: false,
        });
      },
    },
  ];
}
