/**
 * Factories (relative to /api/v1): search, detail, and dispatch to a factory's foreman,
 * which creates an ordinary run executed by the foreman.
 */
import type { EmulatorCore } from '../model/emulator-core.js';
import type { Route } from './http-io.js';
import { EmulatorProblem } from './problem.js';
import { sessionLink } from '../model/run-item.js';
import { DispatchBodySchema, parseBody } from './request-validation.js';
import type { EmulatorFactory } from '../model/types.js';

function wire(f: EmulatorFactory) {
  return { uid: f.uid, name: f.name, ...(f.alias ? { alias: f.alias } : {}) };
}

export function factoryRoutes(core: EmulatorCore): Route[] {
  const find = (uid: string | undefined): EmulatorFactory => {
    const factory = core.factories.find((f) => f.uid === uid);
    if (!factory)
      throw new EmulatorProblem(404, 'resource_not_found', `no factory with uid ${uid ?? ''}`);
    return factory;
  };
  return [
    {
      method: 'GET',
      path: '/factory',
      handle(req) {
        const search = (req.query.get('search') ?? '').trim().toLowerCase();
        const found = core.factories.filter(
          (f) =>
            search === '' ||
            f.name.toLowerCase().includes(search) ||
            (f.alias ?? '').toLowerCase().includes(search),
        );
        return { status: 200, json: { factories: found.map(wire) } };
      },
    },
    {
      method: 'GET',
      path: '/factory/:uid',
      handle: (req) => ({ status: 200, json: wire(find(req.params.uid)) }),
    },
    {
      method: 'POST',
      path: '/factory/:uid/runs',
      handle(req) {
        const factory = find(req.params.uid);
        const body = parseBody(DispatchBodySchema, req.body);
        const run = core.createRun(
          {
            prompt: body.prompt,
            ...(body.title ? { title: body.title } : {}),
            ...(body.metadata ? { metadata: body.metadata } : {}),
            config: { name: factory.name },
          },
          {
            executor: {
              uid: `foreman-${factory.uid}`,
              display_name: `${factory.name} foreman`,
              type: 'service_account',
            },
            ...(body.ticket_url ? { triggerUrl: body.ticket_url } : {}),
          },
        );
        return {
          status: 200,
          json: { run_id: run.runId, state: run.state, run_url: sessionLink(core.url(), run) },
        };
      },
    },
  ];
}
