/**
 * GitHub's REST description of the endpoints the relay calls, as the fake GitHub checks each
 * request against it before answering. The description is GitHub's published OpenAPI
 * description (github.com/github/rest-api-description), as `@octokit/openapi-types` carries it:
 * each row below names its operation, and the compiler holds the row to that operation's
 * published types both ways, so a row cannot allow a field, a query parameter or an enum value
 * GitHub does not publish, nor leave out one it requires.
 *
 * At run time a request is checked for what the types say: no body field or query parameter
 * the operation does not publish, every required body field present, each field of its
 * published JSON type, each enum field one of its published values. Check runs have their own
 * rules beside these (`github-check-runs.ts`). A route the fake answers that has no row here is
 * not checked; every route the relay writes to has one.
 */
import type { components, operations } from '@octokit/openapi-types';
import { REACTION_CONTENTS } from './github-routes.js';

type Json<Op extends keyof operations> = operations[Op] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;
type Query<Op extends keyof operations> = operations[Op] extends {
  parameters: { query?: infer Q };
}
  ? keyof NonNullable<Q>
  : never;
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

/**
 * An answer of the fake, held to the published response schema: every field it gives is one
 * the schema has, of the schema's type (the fake gives only the fields the relay reads).
 */
export type PublishedAnswer<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: PublishedAnswer<T[K]> }
    : T;
export type GitHubSchema = components['schemas'];

/** A field's published JSON type; an enum is the list of its values. */
type Kind<T> = string extends T
  ? 'string'
  : [T] extends [string]
    ? readonly T[]
    : number extends T
      ? 'integer'
      : T extends boolean
        ? 'boolean'
        : T extends readonly unknown[]
          ? 'array'
          : 'object';

/** True when `Listed` names every member of `All` (a compile error names one that is missing). */
type Every<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : Exclude<All, Listed>;

interface Row<Op extends keyof operations> {
  operation: Op;
  method: string;
  path: RegExp;
  /** The published template, as a refusal names the request. */
  template: string;
  body?: { [K in keyof Json<Op>]-?: Kind<NonNullable<Json<Op>[K]>> };
  required?: readonly RequiredKeys<Json<Op>>[];
  query?: readonly Query<Op>[];
  /** Per body field that is an object of enum values (an App token's `permissions`). */
  valuesOf?: Partial<Record<keyof Json<Op>, readonly string[]>>;
}

const row = <Op extends keyof operations>(r: Row<Op>): Row<Op> => r;

/** Every value a permission takes in `app-permissions`, checked both ways. */
type PermissionLevel = NonNullable<
  components['schemas']['app-permissions'][keyof components['schemas']['app-permissions']]
>;
const PERMISSION_LEVELS = ['read', 'write', 'admin'] as const satisfies readonly PermissionLevel[];
const everyLevel: Every<PermissionLevel, (typeof PERMISSION_LEVELS)[number]> = true;

const PAGES = ['per_page', 'page'] as const;
const R = '/repos/[^/]+/[^/]+';

const ROWS = [
  row({
    operation: 'issues/create-comment',
    method: 'POST',
    path: new RegExp(`^${R}/issues/\\d+/comments$`),
    template: '/repos/{owner}/{repo}/issues/{issue_number}/comments',
    body: { body: 'string' },
    required: ['body'],
  }),
  row({
    operation: 'issues/update-comment',
    method: 'PATCH',
    path: new RegExp(`^${R}/issues/comments/\\d+$`),
    template: '/repos/{owner}/{repo}/issues/comments/{comment_id}',
    body: { body: 'string' },
    required: ['body'],
  }),
  row({
    operation: 'pulls/update-review-comment',
    method: 'PATCH',
    path: new RegExp(`^${R}/pulls/comments/\\d+$`),
    template: '/repos/{owner}/{repo}/pulls/comments/{comment_id}',
    body: { body: 'string' },
    required: ['body'],
  }),
  row({
    operation: 'pulls/create-reply-for-review-comment',
    method: 'POST',
    path: new RegExp(`^${R}/pulls/\\d+/comments/\\d+/replies$`),
    template: '/repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies',
    body: { body: 'string' },
    required: ['body'],
  }),
  row({
    operation: 'issues/list-comments',
    method: 'GET',
    path: new RegExp(`^${R}/issues/\\d+/comments$`),
    template: '/repos/{owner}/{repo}/issues/{issue_number}/comments',
    query: ['since', ...PAGES],
  }),
  row({
    operation: 'pulls/list-review-comments',
    method: 'GET',
    path: new RegExp(`^${R}/pulls/\\d+/comments$`),
    template: '/repos/{owner}/{repo}/pulls/{pull_number}/comments',
    query: ['sort', 'direction', 'since', ...PAGES],
  }),
  row({
    operation: 'reactions/create-for-issue',
    method: 'POST',
    path: new RegExp(`^${R}/issues/\\d+/reactions$`),
    template: '/repos/{owner}/{repo}/issues/{issue_number}/reactions',
    body: { content: REACTION_CONTENTS },
    required: ['content'],
  }),
  row({
    operation: 'reactions/create-for-issue-comment',
    method: 'POST',
    path: new RegExp(`^${R}/issues/comments/\\d+/reactions$`),
    template: '/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions',
    body: { content: REACTION_CONTENTS },
    required: ['content'],
  }),
  row({
    operation: 'reactions/create-for-pull-request-review-comment',
    method: 'POST',
    path: new RegExp(`^${R}/pulls/comments/\\d+/reactions$`),
    template: '/repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions',
    body: { content: REACTION_CONTENTS },
    required: ['content'],
  }),
  row({
    operation: 'reactions/list-for-issue',
    method: 'GET',
    path: new RegExp(`^${R}/issues/\\d+/reactions$`),
    template: '/repos/{owner}/{repo}/issues/{issue_number}/reactions',
    query: ['content', ...PAGES],
  }),
  row({
    operation: 'reactions/list-for-issue-comment',
    method: 'GET',
    path: new RegExp(`^${R}/issues/comments/\\d+/reactions$`),
    template: '/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions',
    query: ['content', ...PAGES],
  }),
  row({
    operation: 'reactions/list-for-pull-request-review-comment',
    method: 'GET',
    path: new RegExp(`^${R}/pulls/comments/\\d+/reactions$`),
    template: '/repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions',
    query: ['content', ...PAGES],
  }),
  row({
    operation: 'apps/create-installation-access-token',
    method: 'POST',
    path: /^\/app\/installations\/\d+\/access_tokens$/,
    template: '/app/installations/{installation_id}/access_tokens',
    body: { repositories: 'array', repository_ids: 'array', permissions: 'object' },
    required: [],
    valuesOf: { permissions: PERMISSION_LEVELS },
  }),
  row({
    operation: 'checks/list-for-ref',
    method: 'GET',
    path: new RegExp(`^${R}/commits/[^/]+/check-runs$`),
    template: '/repos/{owner}/{repo}/commits/{ref}/check-runs',
    query: ['check_name', 'status', 'filter', 'app_id', ...PAGES],
  }),
];

// The rows' required lists name every field the operation requires (both ways).
type RequiredListed<Op extends keyof operations, L> = Every<RequiredKeys<Json<Op>>, L>;
const everyRequired: [
  RequiredListed<'issues/create-comment', 'body'>,
  RequiredListed<'issues/update-comment', 'body'>,
  RequiredListed<'pulls/update-review-comment', 'body'>,
  RequiredListed<'pulls/create-reply-for-review-comment', 'body'>,
  RequiredListed<'reactions/create-for-issue', 'content'>,
  RequiredListed<'reactions/create-for-issue-comment', 'content'>,
  RequiredListed<'reactions/create-for-pull-request-review-comment', 'content'>,
  RequiredListed<'apps/create-installation-access-token', never>,
] = [true, true, true, true, true, true, true, true];
void [everyLevel, everyRequired];

export const GITHUB_DESCRIPTION_SOURCE =
  "GitHub's REST OpenAPI description (github/rest-api-description, through @octokit/openapi-types)";

function kindProblem(field: string, kind: unknown, value: unknown): string | undefined {
  if (Array.isArray(kind))
    return (kind as unknown[]).includes(value)
      ? undefined
      : `${field}: ${JSON.stringify(value)} is not one of ${kind.join(', ')}`;
  const actual = Array.isArray(value)
    ? 'array'
    : Number.isInteger(value)
      ? 'integer'
      : value === null
        ? 'null'
        : typeof value;
  return actual === kind ? undefined : `${field}: a ${actual}, where ${String(kind)} is published`;
}

/**
 * What GitHub's description refuses in a request, or undefined when the request has no row
 * (a route the relay does not write to) or fits it.
 */
export function githubRequestProblems(req: {
  method: string;
  path: string;
  query: URLSearchParams;
  body: Record<string, unknown> | undefined;
}): { request: string; problems: string[] } | undefined {
  const r = (ROWS as Row<keyof operations>[]).find(
    (x) => x.method === req.method && x.path.test(req.path),
  );
  if (!r) return undefined;
  const problems: string[] = [];
  const query = (r.query ?? []) as readonly string[];
  for (const key of req.query.keys())
    if (!query.includes(key)) problems.push(`?${key}: not a published parameter`);
  const body = req.body ?? {};
  const fields = (r.body ?? {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries(body)) {
    if (!(key in fields)) {
      problems.push(`${key}: not a published field`);
      continue;
    }
    const wrong = kindProblem(key, fields[key], value);
    if (wrong) problems.push(wrong);
    const values = (r.valuesOf as Record<string, readonly string[]> | undefined)?.[key];
    if (values && typeof value === 'object' && value !== null)
      for (const [k, v] of Object.entries(value))
        if (!values.includes(String(v)))
          problems.push(`${key}.${k}: ${String(v)} is not published`);
  }
  for (const key of (r.required ?? []) as readonly string[])
    if (!(key in body)) problems.push(`${key}: required`);
  if (problems.length === 0) return undefined;
  return { request: `${r.method} ${r.template} (${r.operation})`, problems };
}
