/**
 * The shared pieces of webhook interpretation: options, the result type, and how a candidate
 * Trigger is assembled from a repository, an author and a triggering message.
 */
import type { Trigger, TriggerContext } from '../../core/trigger.js';
import { encodeThreadKey, settingsScopeOf, type ThreadAddress } from '../../core/thread-key.js';
import { encodeMessageId, type GitHubMessageId } from '../api/message-ref.js';
import type { GitHubUser, IssuePayload, PullRequestPayload } from './webhook-payloads.js';

export interface InterpretOptions {
  botHandle: string;
  /** The App's own login (`agent-relay[bot]`) or the token user's login. */
  botLogin?: string;
  triggerLabel: string;
  /** Bound on the issue body and comment carried as context. */
  maxBodyChars: number;
  deliveryId: string;
  receivedAt: string;
}

/**
 * Who must be allowed: the author's `author_association`, or, for a label someone put on
 * another person's issue, nobody more (GitHub lets only people with triage access label).
 */
export type Permission =
  | { kind: 'association'; value: string }
  | { kind: 'label-access' }
  /** No association to filter on (a check run's button): the repository access check decides. */
  | { kind: 'repo-access' };

export type Interpretation =
  | { kind: 'ignore'; reason: string }
  | { kind: 'invalid'; problem: string }
  | {
      kind: 'candidate';
      trigger: Trigger;
      permission: Permission;
      owner: string;
      repo: string;
      installationId?: number;
    };

export function bound(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n…(truncated, ${text.length - max} more characters)`;
}

export function isSelfOrBot(user: GitHubUser, opts: InterpretOptions): boolean {
  if (user.type === 'Bot') return true;
  const login = user.login.toLowerCase();
  const handle = opts.botHandle.replace(/^@/, '').toLowerCase();
  return login === handle || login === `${handle}[bot]` || login === opts.botLogin?.toLowerCase();
}

export function issueContext(
  base: Base,
  issue: IssuePayload | PullRequestPayload,
  isPr: boolean,
  max: number,
) {
  const context: NonNullable<TriggerContext['issue']> = {
    repo: `${base.owner}/${base.repo}`,
    number: issue.number,
    title: issue.title,
    body: bound(issue.body, max),
    url: issue.html_url,
    isPullRequest: isPr,
  };
  if ('head' in issue) {
    context.headRef = issue.head.ref;
    context.baseRef = issue.base.ref;
  }
  return context;
}

export interface Base {
  owner: string;
  repo: string;
  installationId?: number;
  address: ThreadAddress;
}

export function candidate(
  base: Base,
  opts: InterpretOptions,
  permission: Permission,
  fields: Omit<
    Trigger,
    'platform' | 'threadKey' | 'deliveryId' | 'receivedAt' | 'settingsScope' | 'triggerMessage'
  >,
  message: { id: GitHubMessageId; url: string },
): Interpretation {
  let threadKey: string;
  try {
    threadKey = encodeThreadKey(base.address);
  } catch {
    return { kind: 'invalid', problem: 'repository or number cannot name a thread' };
  }
  const trigger: Trigger = {
    platform: 'github',
    threadKey,
    deliveryId: opts.deliveryId,
    receivedAt: opts.receivedAt,
    settingsScope: settingsScopeOf(base.address),
    triggerMessage: { threadKey, id: encodeMessageId(message.id), url: message.url },
    ...fields,
  };
  return {
    kind: 'candidate',
    trigger,
    permission,
    owner: base.owner,
    repo: base.repo,
    installationId: base.installationId,
  };
}

/** A message its author wrote: their association is the permission, the body the words. */
export function authoredCandidate(
  base: Base,
  opts: InterpretOptions,
  author: { user: GitHubUser; author_association: string; body: string },
  kind: Trigger['kind'],
  context: TriggerContext,
  message: { id: GitHubMessageId; url: string },
): Interpretation {
  return candidate(
    base,
    opts,
    { kind: 'association', value: author.author_association },
    {
      kind,
      actor: actorOf(author.user, author.author_association),
      text: author.body,
      addressed: false,
      context,
    },
    message,
  );
}

export function baseOf(
  payload: {
    repository: { name: string; owner: { login: string } };
    installation?: { id: number } | null;
  },
  number: number,
  reviewCommentId?: number,
): Base {
  const owner = payload.repository.owner.login;
  const repo = payload.repository.name;
  const address: ThreadAddress = { platform: 'github', owner, repo, number };
  if (reviewCommentId !== undefined) address.reviewCommentId = reviewCommentId;
  return { owner, repo, installationId: payload.installation?.id ?? undefined, address };
}

export function actorOf(user: GitHubUser, association?: string) {
  return association === undefined
    ? { id: user.login, name: user.login }
    : { id: user.login, name: user.login, association };
}
