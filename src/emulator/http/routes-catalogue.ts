/**
 * The catalogue (relative to /api/v1), as published: `GET /agent/environments` (sorted by
 * `last_updated`, newest first, or by `name`) and `GET /agent/models` (with the default).
 */
import type { CatalogueControls, EmulatorEnvironment } from '../model/catalogue.js';
import type { Route } from './http-io.js';
import { EmulatorProblem } from './problem.js';

function environmentWire(env: EmulatorEnvironment, startedAt: number) {
  return {
    uid: env.uid,
    config: {
      name: env.name,
      ...(env.description === undefined ? {} : { description: env.description }),
      docker_image: 'ubuntu:latest',
      github_repos: env.repos.map((full) => {
        const [owner = '', repo = ''] = full.split('/');
        return { owner, repo };
      }),
      setup_commands: [],
    },
    last_updated: new Date(env.lastUpdated ?? startedAt).toISOString(),
    last_task_run_timestamp: null,
    setup_failed: env.setupFailed ?? false,
    scope: { type: 'Team', uid: 'team-emulator' },
  };
}

export function catalogueRoutes(catalogue: CatalogueControls, startedAt: number): Route[] {
  return [
    {
      method: 'GET',
      path: '/agent/environments',
      handle(req) {
        const sortBy = req.query.get('sort_by') ?? 'last_updated';
        if (sortBy !== 'name' && sortBy !== 'last_updated') {
          throw new EmulatorProblem(400, 'invalid_request', 'sort_by must be name or last_updated');
        }
        const environments = [...catalogue.get().environments];
        if (sortBy === 'name') environments.sort((a, b) => a.name.localeCompare(b.name));
        else environments.sort((a, b) => (b.lastUpdated ?? 0) - (a.lastUpdated ?? 0));
        return {
          status: 200,
          json: { environments: environments.map((e) => environmentWire(e, startedAt)) },
        };
      },
    },
    {
      method: 'GET',
      path: '/agent/models',
      handle() {
        const { models, defaultModelId } = catalogue.get();
        return {
          status: 200,
          json: {
            default_model_id: defaultModelId,
            models: models.map((m) => ({
              id: m.id,
              display_name: m.displayName,
              provider: m.provider,
              vision_supported: m.visionSupported ?? false,
              ...(m.description === undefined ? {} : { description: m.description }),
              ...(m.reasoningLevel === undefined ? {} : { reasoning_level: m.reasoningLevel }),
              ...(m.disableReason === undefined ? {} : { disable_reason: m.disableReason }),
            })),
          },
        };
      },
    },
  ];
}
