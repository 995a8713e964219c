/**
 * A fake Linear GraphQL API on loopback (node:http, 127.0.0.1, port 0), for the tests, the
 * demo and the bench. It knows workspaces (each with its app token, app user, teams and their
 * workflow states, issues), answers the operations agent-relay sends (by operation name:
 * AgentActivityCreate, AgentActivity, AgentSessionUpdate, AgentSessionIssue,
 * TeamStartedStates, IssueUpdate), records every activity and issue update, refuses a token
 * it does not know and a session of another workspace, and sends signed `AgentSessionEvent`
 * webhooks (`Linear-Signature`, `Linear-Delivery`, `webhookTimestamp`) the way Linear does, each
 * event typed by the SDK's webhook payload types; its errors carry Linear's `extensions.type`.
 * Every request is first checked against Linear's published GraphQL schema (`linear-schema.ts`):
 * one the schema refuses is answered as Linear answers it (400, GRAPHQL_VALIDATION_FAILED) and
 * fails the test that sent it (`published.ts`), and so does an answer of the fake's own that the
 * schema would not allow.
 * For OAuth install it serves a consent page (`GET /oauth/authorize`, which grants at once for
 * the workspace `authorizeAs` names), the token endpoint (`POST /oauth/token`: code exchange
 * and refresh, tokens that expire after 24 hours by the fake's clock) and `POST /oauth/revoke`. What it
 * knows is in `linear-model.ts`, the webhooks it sends in `linear-webhooks.ts`, the OAuth
 * routes in `linear-oauth.ts`.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GraphQLError } from 'graphql';
import { createFakeLinearOAuth, type FakeLinearOAuth } from './linear-oauth.js';
import {
  activityTypes,
  answerProblems,
  checkLinearRequest,
  errorLines,
  LINEAR_SCHEMA_SOURCE,
  linearSchema,
  type CheckedOperation,
} from './linear-schema.js';
import { recordRefusal } from './published.js';
import {
  agentSessionEvent,
  postSignedWebhook,
  promptActivity,
  type SentWebhook,
} from './linear-webhooks.js';

import {
  defaultLinearWorkspaces,
  type FakeLinearActivity,
  type FakeLinearIssue,
  type FakeLinearRequest,
  type FakeLinearSession,
  type FakeLinearState,
  type FakeLinearWorkspace,
} from './linear-model.js';

export type { SentWebhook } from './linear-webhooks.js';
/** What the fake knows, for callers that import the fake alone. */
export * from './linear-model.js';

export interface FakeLinear {
  url: string;
  /** The consent page (`…/oauth/authorize`). */
  authorizeUrl: string;
  /** The workspace (index) whose consent the next authorization grants. */
  authorizeAs(workspace: number, actor?: 'app' | 'user'): void;
  /** What each consent page visit asked for. */
  authorizations: URLSearchParams[];
  /** The OAuth client this fake knows. */
  oauthClient: { id: string; secret: string };
  /** Token pairs issued, refreshes asked for, tokens revoked (OAuth install). */
  oauthGrants: FakeLinearOAuth['grants'];
  oauthRefreshes: FakeLinearOAuth['refreshes'];
  oauthRevoked: FakeLinearOAuth['revoked'];
  /** The workspace a bearer token belongs to (or `expired` / `unknown`). */
  ownerOf: FakeLinearOAuth['ownerOf'];
  workspaces: FakeLinearWorkspace[];
  issues: Map<string, FakeLinearIssue>;
  sessions: Map<string, FakeLinearSession>;
  activities: FakeLinearActivity[];
  issueUpdates: { issueId: string; stateId: string; at: number }[];
  requests: FakeLinearRequest[];
  /** The activities of one session, oldest first. */
  activitiesOf(sessionId: string): FakeLinearActivity[];
  /** Where signed webhooks go (the relay's `/linear/webhooks`), and the secret. */
  setWebhook(url: string, secret: string): void;
  /** Open a session on a new issue, as delegating it (or mentioning the app) would. */
  openSession(input: {
    workspace?: number;
    title?: string;
    description?: string;
    /** `delegate` (default): the issue is delegated to the app; `mention`: a comment. */
    how?: 'delegate' | 'mention';
    comment?: string;
    creator?: { id: string; name?: string };
    stateType?: FakeLinearState['type'];
  }): Promise<{ session: FakeLinearSession; sent: SentWebhook }>;
  /** A person's further message (or Stop) in a session. */
  prompt(
    sessionId: string,
    body: string,
    options?: { signal?: 'stop'; user?: { id: string; name?: string } },
  ): Promise<SentWebhook>;
  /** Send one webhook as given (tests of bad signatures, stale timestamps, redeliveries). */
  send(
    body: string,
    headers?: Record<string, string>,
    options?: { deliveryId?: string; secret?: string },
  ): Promise<SentWebhook>;
  /** Build the body of an `AgentSessionEvent` (`webhookTimestamp` now unless given). */
  eventBody(
    sessionId: string,
    action: 'created' | 'prompted',
    extra?: Record<string, unknown>,
  ): string;
  /** The next `times` GraphQL calls answer this HTTP status. */
  failNext(status: number, times?: number): void;
  close(): Promise<void>;
}

/** Linear's error `type` (what its SDK reads) for each error code the fake answers with. */
const ERROR_TYPES: Record<string, string> = {
  ENTITY_NOT_FOUND: 'invalid input',
  INVALID_INPUT: 'invalid input',
  GRAPHQL_VALIDATION_FAILED: 'graphql error',
  BAD_REQUEST: 'graphql error',
  AUTHENTICATION_ERROR: 'authentication error',
  RATELIMITED: 'ratelimited',
  INTERNAL: 'internal error',
};

const CONTENT_SOURCE =
  "Linear's activity content payload (linear.app/developers/agent-interaction#activity-content-payload)";

/**
 * The activity content Linear documents (the schema types `content` as a bare JSONObject): a
 * `type` among the schema's `AgentActivityType` that an agent writes (`prompt` is a person's),
 * a `body` for thought, elicitation, response and error, `action` and `parameter` for an
 * action (its `result` optional).
 */
function contentProblem(content: unknown): string | undefined {
  if (typeof content !== 'object' || content === null) return 'content must be an object';
  const c = content as Record<string, unknown>;
  const types = activityTypes().filter((t) => t !== 'prompt');
  if (typeof c.type !== 'string' || !types.includes(c.type))
    return `content.type must be one of ${types.join(', ')}`;
  const text = (k: string) => typeof c[k] === 'string' && c[k] !== '';
  if (c.type === 'action') {
    if (!text('action') || typeof c.parameter !== 'string')
      return 'an action needs content.action and content.parameter';
    if (c.result !== undefined && typeof c.result !== 'string')
      return 'content.result must be a string';
    return undefined;
  }
  return text('body') ? undefined : `a ${c.type} needs content.body`;
}

/** An error as Linear's API words it: a message, and `extensions` with its type and code. */
function gqlError(res: ServerResponse, status: number, message: string, code: string): void {
  const type = ERROR_TYPES[code] ?? 'unknown';
  const userError = type === 'invalid input';
  const extensions = { type, code, userError, userPresentableMessage: message };
  const body = JSON.stringify({ errors: [{ message, extensions }] });
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(body);
}

/**
 * A request the schema refuses, answered as Linear's API answers one (HTTP 400, each error with
 * its locations and `extensions.code` GRAPHQL_VALIDATION_FAILED, which the SDK reads as a
 * `graphql error`) and recorded as a refusal, which fails the test that sent it.
 */
function refuseInvalid(
  res: ServerResponse,
  operation: string,
  errors: readonly GraphQLError[],
): void {
  const problems = errorLines(errors);
  recordRefusal({
    platform: 'linear',
    request: operation || 'an operation without a name',
    problems,
    source: LINEAR_SCHEMA_SOURCE,
  });
  const extensions = {
    code: 'GRAPHQL_VALIDATION_FAILED',
    type: ERROR_TYPES.GRAPHQL_VALIDATION_FAILED,
    userError: false,
  };
  const body = JSON.stringify({
    errors: errors.map((e) => ({
      message: e.message,
      ...(e.locations ? { locations: e.locations } : {}),
      extensions: { ...extensions, userPresentableMessage: e.message },
    })),
  });
  res.writeHead(400, { 'content-type': 'application/json' });
  res.end(body);
}

export async function startFakeLinear(
  options: {
    workspaces?: FakeLinearWorkspace[];
    /** The clock OAuth tokens expire by (epoch ms); Date.now by default. */
    clock?: () => number;
  } = {},
): Promise<FakeLinear> {
  const workspaces = options.workspaces ?? defaultLinearWorkspaces();
  const issues = new Map<string, FakeLinearIssue>();
  const sessions = new Map<string, FakeLinearSession>();
  const activities: FakeLinearActivity[] = [];
  const issueUpdates: FakeLinear['issueUpdates'] = [];
  const requests: FakeLinearRequest[] = [];
  let webhook: { url: string; secret: string } | undefined;
  let failures: { status: number; times: number } | undefined;
  let issueNumber = 0;

  // Built once per process before the first request, so no answer waits for it.
  linearSchema();
  const oauth = createFakeLinearOAuth(workspaces, options.clock);
  const isMember = (auth: string | undefined) => oauth.actorOf(auth) === 'user';

  function answer(
    res: ServerResponse,
    checked: CheckedOperation,
    vars: Record<string, unknown>,
    ws: FakeLinearWorkspace,
    asMember = false,
  ): void {
    const operation = checked.name;
    const ok = (data: unknown) => {
      // The fake's own answer must fit the schema too: a mistake here is the fake's.
      const problems = answerProblems(checked, vars, data);
      if (problems.length > 0)
        recordRefusal({
          platform: 'linear',
          request: `the fake's answer to ${operation}`,
          problems,
          source: LINEAR_SCHEMA_SOURCE,
        });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data }));
    };
    const sessionIn = (id: unknown) => {
      const session = typeof id === 'string' ? sessions.get(id) : undefined;
      return session?.organizationId === ws.organizationId ? session : undefined;
    };
    switch (operation) {
      case 'UserAdmin': {
        const id = typeof vars.id === 'string' ? vars.id : '';
        if (id === '') return gqlError(res, 200, 'Entity not found', 'ENTITY_NOT_FOUND');
        return ok({ user: { id, admin: ws.admins.has(id) } });
      }
      case 'Viewer':
        return ok({
          viewer: {
            ...(asMember ? { id: 'user-ada', app: false } : { id: ws.appUserId, app: true }),
            organization: {
              id: ws.organizationId,
              urlKey: ws.organizationId,
              name: ws.organizationId,
            },
          },
        });
      case 'AgentActivityCreate': {
        const input = (vars.input ?? {}) as Record<string, unknown>;
        const session = sessionIn(input.agentSessionId);
        if (!session) return gqlError(res, 200, 'Entity not found', 'ENTITY_NOT_FOUND');
        const id = typeof input.id === 'string' ? input.id : randomUUID();
        if (activities.some((a) => a.id === id))
          return gqlError(res, 200, 'Activity already exists', 'INVALID_INPUT');
        const content = input.content as FakeLinearActivity['content'];
        const wrong = contentProblem(input.content);
        if (wrong) {
          recordRefusal({
            platform: 'linear',
            request: operation,
            problems: [wrong],
            source: CONTENT_SOURCE,
          });
          return gqlError(res, 200, wrong, 'INVALID_INPUT');
        }
        activities.push({
          id,
          sessionId: session.id,
          content,
          ephemeral: input.ephemeral === true,
          at: performance.now(),
        });
        return ok({ agentActivityCreate: { success: true, agentActivity: { id } } });
      }
      case 'AgentActivity': {
        const found = activities.find((a) => a.id === vars.id && sessionIn(a.sessionId));
        if (!found) return gqlError(res, 200, 'Entity not found', 'ENTITY_NOT_FOUND');
        return ok({ agentActivity: { id: found.id } });
      }
      case 'AgentSessionUpdate': {
        const session = sessionIn(vars.id);
        if (!session) return gqlError(res, 200, 'Entity not found', 'ENTITY_NOT_FOUND');
        const input = (vars.input ?? {}) as { externalUrls?: { label: string; url: string }[] };
        if (input.externalUrls) session.externalUrls = input.externalUrls;
        return ok({ agentSessionUpdate: { success: true } });
      }
      case 'AgentSessionIssue': {
        const session = sessionIn(vars.id);
        if (!session) return gqlError(res, 200, 'Entity not found', 'ENTITY_NOT_FOUND');
        const issue = issues.get(session.issueId);
        if (!issue)
          return ok({
            viewer: { id: ws.appUserId },
            agentSession: { id: session.id, issue: null },
          });
        const state = ws.team.states.find((s) => s.id === issue.stateId);
        return ok({
          viewer: { id: ws.appUserId },
          agentSession: {
            id: session.id,
            issue: {
              id: issue.id,
              delegate: issue.delegateId ? { id: issue.delegateId } : null,
              state: state ? { id: state.id, type: state.type } : null,
              team: { id: issue.teamId },
            },
          },
        });
      }
      case 'TeamStartedStates': {
        if (vars.teamId !== ws.team.id)
          return gqlError(res, 200, 'Entity not found', 'ENTITY_NOT_FOUND');
        return ok({
          team: { states: { nodes: ws.team.states.filter((s) => s.type === 'started') } },
        });
      }
      case 'IssueUpdate': {
        const issue = typeof vars.id === 'string' ? issues.get(vars.id) : undefined;
        if (!issue || issue.organizationId !== ws.organizationId)
          return gqlError(res, 200, 'Entity not found', 'ENTITY_NOT_FOUND');
        const stateId = ((vars.input ?? {}) as { stateId?: string }).stateId;
        if (!stateId || !ws.team.states.some((s) => s.id === stateId))
          return gqlError(res, 200, 'Invalid state', 'INVALID_INPUT');
        issue.stateId = stateId;
        issueUpdates.push({ issueId: issue.id, stateId, at: performance.now() });
        return ok({ issueUpdate: { success: true } });
      }
      default:
        // Valid by the schema, but not one this fake serves: the fake falls short, so the
        // test fails (add the operation here) rather than the relay seeing an answer Linear
        // would never give.
        recordRefusal({
          platform: 'linear',
          request: operation || 'an operation without a name',
          problems: ['the fake Linear does not serve this operation yet'],
          source: 'src/fakes/linear-graphql-api.ts',
        });
        return gqlError(res, 400, `Unknown operation ${operation}`, 'GRAPHQL_VALIDATION_FAILED');
    }
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (oauth.handle(req, res, Buffer.concat(chunks).toString('utf8'))) return;
      let parsed: { query?: string; variables?: Record<string, unknown> };
      try {
        parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof parsed;
      } catch {
        return gqlError(res, 400, 'Body is not JSON', 'BAD_REQUEST');
      }
      const variables = parsed.variables ?? {};
      const checked = checkLinearRequest(parsed.query ?? '', variables);
      const operation = checked.ok
        ? checked.operation.name
        : (/^\s*(?:query|mutation)\s+(\w+)/.exec(parsed.query ?? '')?.[1] ?? '');
      const authorization = req.headers.authorization;
      requests.push({
        operation,
        variables,
        ...(authorization ? { authorization } : {}),
        at: performance.now(),
      });
      if (failures && failures.times > 0) {
        failures.times -= 1;
        return gqlError(
          res,
          failures.status,
          'Injected failure',
          failures.status === 429 ? 'RATELIMITED' : 'INTERNAL',
        );
      }
      if (!checked.ok) return refuseInvalid(res, operation, checked.errors);
      const ws = oauth.ownerOf(authorization);
      if (ws === 'expired')
        return gqlError(res, 401, 'Access token expired', 'AUTHENTICATION_ERROR');
      if (ws === 'unknown')
        return gqlError(res, 401, 'Authentication required', 'AUTHENTICATION_ERROR');
      try {
        answer(res, checked.operation, variables, ws, isMember(authorization));
      } catch (err) {
        gqlError(res, 500, `fake failed: ${(err as Error).message}`, 'INTERNAL');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  function eventBody(
    sessionId: string,
    action: 'created' | 'prompted',
    extra: Record<string, unknown> = {},
  ): string {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    const issue = issues.get(session.issueId)!;
    const ws = workspaces.find((w) => w.organizationId === session.organizationId)!;
    return JSON.stringify({ ...agentSessionEvent({ action, session, issue, ws }), ...extra });
  }

  function send(
    body: string,
    headers: Record<string, string> = {},
    opts: { deliveryId?: string; secret?: string } = {},
  ): Promise<SentWebhook> {
    if (!webhook) throw new Error('setWebhook first');
    return postSignedWebhook(webhook, body, headers, opts);
  }

  return {
    url: `http://127.0.0.1:${port}/graphql`,
    authorizeUrl: `http://127.0.0.1:${port}/oauth/authorize`,
    authorizeAs: oauth.authorizeAs,
    authorizations: oauth.authorizations,
    oauthClient: oauth.client,
    oauthGrants: oauth.grants,
    oauthRefreshes: oauth.refreshes,
    oauthRevoked: oauth.revoked,
    ownerOf: oauth.ownerOf,
    workspaces,
    issues,
    sessions,
    activities,
    issueUpdates,
    requests,
    activitiesOf: (id) => activities.filter((a) => a.sessionId === id),
    setWebhook(url, secret) {
      webhook = { url, secret };
    },
    async openSession(input) {
      const ws = workspaces[input.workspace ?? 0]!;
      issueNumber += 1;
      const stateType = input.stateType ?? 'unstarted';
      const state = ws.team.states.find((s) => s.type === stateType)!;
      const issue: FakeLinearIssue = {
        id: randomUUID(),
        identifier: `${ws.team.key}-${issueNumber}`,
        title: input.title ?? 'Fix the flaky login test',
        description: input.description ?? 'The login test fails one run in ten.',
        url: `https://linear.app/${ws.organizationId}/issue/${ws.team.key}-${issueNumber}`,
        organizationId: ws.organizationId,
        teamId: ws.team.id,
        stateId: state.id,
        ...(input.how === 'mention' ? {} : { delegateId: ws.appUserId }),
      };
      issues.set(issue.id, issue);
      const session: FakeLinearSession = {
        id: randomUUID(),
        organizationId: ws.organizationId,
        issueId: issue.id,
        creatorId: input.creator?.id ?? 'user-ada',
        externalUrls: [],
        createdAt: performance.now(),
      };
      sessions.set(session.id, session);
      const comment = input.how === 'mention' ? (input.comment ?? '@agent please look') : undefined;
      const context =
        `<issue identifier="${issue.identifier}">\n<title>${issue.title}</title>\n` +
        `<description>${issue.description}</description>\n</issue>` +
        (comment
          ? `\n<primary-directive-thread comment-id="c1">\n${comment}\n</primary-directive-thread>`
          : '');
      const body = eventBody(session.id, 'created', {
        promptContext: context,
      });
      const withComment = comment
        ? JSON.stringify({
            ...(JSON.parse(body) as Record<string, unknown>),
            agentSession: {
              ...(JSON.parse(body) as { agentSession: Record<string, unknown> }).agentSession,
              comment: { id: 'c1', body: comment },
            },
          })
        : body;
      session.createdAt = performance.now();
      const sent = await send(withComment);
      return { session, sent };
    },
    prompt(sessionId, body, opts = {}) {
      return send(
        eventBody(sessionId, 'prompted', {
          agentActivity: promptActivity(sessionId, body, opts),
        }),
      );
    },
    send,
    eventBody,
    failNext(status, times = 1) {
      failures = { status, times };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
