/**
 * Factories (relative to /api/v1): search, detail, and dispatch to a factory's foreman,
 * which creates an ordinary run executed by the foreman.
 */
import { randomUUID } from 'node:crypto';
import type { EmulatorCore } from '../model/emulator-core.js';
import type { Route } from './http-io.js';
import { EmulatorProblem } from './problem.js';
import { FOREMAN_UID_PREFIX, toFactoryItem } from '../model/factory-item.js';
import { sessionLink } from '../model/run-item.js';
import { DispatchBodySchema, parseBody } from './request-validation.js';
import type { EmulatorFactory } from '../model/types.js';

/** Factories per page when the request names no `limit`. */
export const FACTORY_PAGE_LIMIT = 20;

const wire = toFactoryItem;

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
        // Cursor-paginated like the published list: the cursor is the offset, opaque to clients.
        const rawLimit = req.query.get('limit');
        const limit = rawLimit === null ? FACTORY_PAGE_LIMIT : Number(rawLimit);
        if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
          throw new EmulatorProblem(
            400,
            'invalid_request',
            'limit must be an integer from 1 to 100',
          );
        }
        const rawCursor = req.query.get('cursor');
        const offset = rawCursor ? Number(Buffer.from(rawCursor, 'base64url').toString('utf8')) : 0;
        if (!Number.isInteger(offset) || offset < 0) {
          throw new EmulatorProblem(
            400,
            'invalid_request',
            'cursor is not a cursor this service issued',
          );
        }
        const page = found.slice(offset, offset + limit);
        const more = offset + limit < found.length;
        return {
          status: 200,
          json: {
            factories: page.map(wire),
            page_info: {
              has_next_page: more,
              ...(more
                ? { next_cursor: Buffer.from(String(offset + limit)).toString('base64url') }
                : {}),
            },
          },
        };
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
        // The given reference, or a minted ad-hoc one; stamped onto the run as metadata.
        const ticketRef = body.ticket_ref ?? `adhoc:${randomUUID()}`;
        const colon = ticketRef.indexOf(':');
        const run = core.createRun(
          {
            prompt: body.prompt,
            ...(body.title ? { title: body.title } : {}),
            metadata: {
              ticket_source: ticketRef.slice(0, colon),
              ticket_id: ticketRef.slice(colon + 1),
              ...(body.ticket_url ? { ticket_url: body.ticket_url } : {}),
              ...(body.metadata ?? {}),
            },
            config: { name: factory.name },
          },
          {
            executor: {
              uid: FOREMAN_UID_PREFIX + factory.uid,
              display_name: `${factory.name} foreman`,
              type: 'service_account',
            },
            ...(body.ticket_url ? { triggerUrl: body.ticket_url } : {}),
          },
        );
        return {
          status: 200,
          json: {
            run_id: run.runId,
            state: run.state,
            run_url: sessionLink(core.url(), run),
            factory_uid: factory.uid,
            foreman_agent: `${factory.name} foreman`,
            ticket_ref: ticketRef,
          },
        };
      },
    },
  ];
}
