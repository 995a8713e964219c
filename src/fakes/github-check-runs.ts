/**
 * Check runs in the fake GitHub, as GitHub keeps them: created on a commit by an App whose
 * installation token carries `checks: write` (anything else gets GitHub's 403), updated in
 * place, listed per commit; and the signed `check_run` webhook GitHub sends an App when
 * someone clicks one of its buttons (`requested_action`) or "Re-run" (`rerequested`).
 *
 * Two rules from GitHub's REST description of check runs (`checks/create` and `checks/update`
 * in GitHub's published OpenAPI description, as `@octokit/openapi-types` carries it):
 * - `actions`: "The button created in this object is displayed after the check run
 *   completes." GitHub takes them on any check run but shows them only on a completed one;
 *   `shownActions` is what a person can press now.
 * - A completed check run is final (`completed_at` and its conclusion): another attempt is a
 *   new check run ("Re-run" asks the app for one). This fake refuses (422) an update that moves
 *   a completed check run back to `queued` or `in_progress`.
 */
import type { RestEndpointMethodTypes } from '@octokit/rest';
import { signGitHub } from './sign-requests.js';

/**
 * What GitHub's published description allows in a check-run write (`checks/create` and
 * `checks/update`, as Octokit's endpoint types carry GitHub's OpenAPI description): the lists
 * below are checked against those types when this compiles, both ways, so a value GitHub does
 * not publish cannot slip in and one it adds shows up here.
 */
type CreateParams = RestEndpointMethodTypes['checks']['create']['parameters'];
type UpdateParams = RestEndpointMethodTypes['checks']['update']['parameters'];
type Status = NonNullable<CreateParams['status'] | UpdateParams['status']>;
type Conclusion = NonNullable<CreateParams['conclusion'] | UpdateParams['conclusion']>;
const STATUSES = ['queued', 'in_progress', 'completed'] as const satisfies readonly Status[];
const CONCLUSIONS = [
  'action_required',
  'cancelled',
  'failure',
  'neutral',
  'success',
  'skipped',
  'stale',
  'timed_out',
] as const satisfies readonly Conclusion[];
/** The body fields of a write (the path's owner, repo and check run id aside). */
const FIELDS = [
  'name',
  'head_sha',
  'details_url',
  'external_id',
  'status',
  'started_at',
  'conclusion',
  'completed_at',
  'output',
  'actions',
] as const satisfies readonly (keyof CreateParams | keyof UpdateParams)[];
type Unlisted<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : Exclude<All, Listed>;
// Every published status and conclusion is listed (a compile error names one that is not).
const everyStatus: Unlisted<Status, (typeof STATUSES)[number]> = true;
const everyConclusion: Unlisted<Conclusion, (typeof CONCLUSIONS)[number]> = true;
void [everyStatus, everyConclusion];

export interface FakeCheckRun {
  id: number;
  owner: string;
  repo: string;
  headSha: string;
  name: string;
  externalId?: string;
  detailsUrl?: string;
  status: string;
  conclusion?: string;
  output?: { title?: string; summary?: string; text?: string };
  actions: { label: string; description: string; identifier: string }[];
  /** The buttons GitHub shows: the `actions`, once the check run has completed; none before. */
  shownActions: { label: string; description: string; identifier: string }[];
  /** Every body it was created or updated with, in order. */
  writes: Record<string, unknown>[];
}

type Body = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** What the REST answer and the webhook both say of a check run. */
function sharedFields(run: FakeCheckRun) {
  return {
    id: run.id,
    head_sha: run.headSha,
    name: run.name,
    external_id: run.externalId ?? '',
    details_url: run.detailsUrl ?? null,
    status: run.status,
    conclusion: run.conclusion ?? null,
  };
}

export function createCheckRuns() {
  const runs = new Map<number, FakeCheckRun>();
  let nextId = 7_700_000;

  /** Apply a create or update body to a check run, as GitHub does (fields given replace). */
  function apply(run: FakeCheckRun, body: Body): void {
    run.writes.push(body);
    if (str(body.name) !== undefined) run.name = str(body.name)!;
    if (str(body.external_id) !== undefined) run.externalId = str(body.external_id);
    if (str(body.details_url) !== undefined) run.detailsUrl = str(body.details_url);
    if (str(body.conclusion) !== undefined) {
      run.conclusion = str(body.conclusion);
      run.status = 'completed';
    }
    if (str(body.status) !== undefined) run.status = str(body.status)!;
    if (run.status !== 'completed') delete run.conclusion;
    if (typeof body.output === 'object' && body.output !== null) run.output = body.output as Body;
    if (Array.isArray(body.actions)) run.actions = body.actions as FakeCheckRun['actions'];
    run.shownActions = run.status === 'completed' ? run.actions : [];
  }

  /** GitHub's 422 for an update that would take a completed check run back (see above). */
  function reopens(run: FakeCheckRun, body: Body): string | undefined {
    if (run.status !== 'completed') return undefined;
    const status = str(body.status);
    if (status !== undefined && status !== 'completed')
      return `status: a completed check run cannot become ${status}; create a new check run`;
    return undefined;
  }

  /**
   * GitHub's 422 for what it refuses in a body: a field, status or conclusion its description
   * does not publish, too many buttons, long identifiers.
   */
  function invalid(body: Body): string | undefined {
    const unknown = Object.keys(body).find((k) => !(FIELDS as readonly string[]).includes(k));
    if (unknown !== undefined) return `${unknown}: not a field of a check run`;
    if (body.status !== undefined && !(STATUSES as readonly unknown[]).includes(body.status))
      return `status: ${String(body.status)} is not one of ${STATUSES.join(', ')}`;
    if (
      body.conclusion !== undefined &&
      !(CONCLUSIONS as readonly unknown[]).includes(body.conclusion)
    )
      return `conclusion: ${String(body.conclusion)} is not one of ${CONCLUSIONS.join(', ')}`;
    const actions = Array.isArray(body.actions) ? (body.actions as Body[]) : [];
    if (actions.length > 3) return 'actions: at most 3';
    for (const a of actions) {
      if (String(a.identifier ?? '').length > 20) return 'actions.identifier: at most 20';
      if (String(a.label ?? '').length > 20) return 'actions.label: at most 20';
      if (String(a.description ?? '').length > 40) return 'actions.description: at most 40';
    }
    if (body.conclusion === 'action_required' && typeof body.details_url !== 'string')
      return 'details_url is required with action_required';
    return undefined;
  }

  return {
    runs,
    invalid,
    reopens,
    create(owner: string, repo: string, body: Body): FakeCheckRun {
      const run: FakeCheckRun = {
        id: ++nextId,
        owner,
        repo,
        headSha: str(body.head_sha) ?? '',
        name: str(body.name) ?? '',
        status: 'queued',
        actions: [],
        shownActions: [],
        writes: [],
      };
      apply(run, body);
      runs.set(run.id, run);
      return run;
    },
    update(run: FakeCheckRun, body: Body): void {
      apply(run, body);
    },
    json(run: FakeCheckRun): Body {
      return {
        ...sharedFields(run),
        output: run.output ?? {},
        html_url: `https://github.com/${run.owner}/${run.repo}/runs/${run.id}`,
      };
    },
  };
}

export type CheckRuns = ReturnType<typeof createCheckRuns>;

export interface CheckRunEventOptions {
  /** Where the relay takes webhooks (`…/github/webhooks`) and the secret it verifies. */
  url: string;
  secret: string;
  action: 'requested_action' | 'rerequested';
  /** Who clicked. */
  login: string;
  /** The button's identifier (`requested_action`). */
  identifier?: string;
  installationId?: number;
  /** The pull requests GitHub lists on the check run (default: the one of its commit). */
  pullRequests?: number[];
}

/** A `check_run` webhook about `run`, signed and POSTed the way GitHub sends it. */
export async function sendCheckRunEvent(
  run: FakeCheckRun,
  o: CheckRunEventOptions,
  pullOf: (run: FakeCheckRun) => number | undefined,
): Promise<Response> {
  const pr = pullOf(run);
  const numbers = o.pullRequests ?? (pr === undefined ? [] : [pr]);
  const repoUrl = `https://api.github.com/repos/${run.owner}/${run.repo}`;
  const payload = {
    action: o.action,
    check_run: {
      ...sharedFields(run),
      app: { id: 1, slug: 'agent-relay' },
      pull_requests: numbers.map((number) => ({
        number,
        url: `${repoUrl}/pulls/${number}`,
        head: { sha: run.headSha },
      })),
    },
    ...(o.action === 'requested_action' ? { requested_action: { identifier: o.identifier } } : {}),
    repository: {
      name: run.repo,
      full_name: `${run.owner}/${run.repo}`,
      owner: { login: run.owner },
    },
    sender: { login: o.login, type: 'User' },
    ...(o.installationId === undefined ? {} : { installation: { id: o.installationId } }),
  };
  const body = JSON.stringify(payload);
  return fetch(o.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'GitHub-Hookshot/fake',
      'x-github-event': 'check_run',
      'x-github-delivery': `check-run-${run.id}-${Date.now()}-${Math.random()}`,
      'x-hub-signature-256': signGitHub(body, o.secret),
    },
    body,
  });
}
