/**
 * "May this person act in this repository?": asked by the runs for every GitHub request
 * (start, follow-up, cancel, config, list) before anything reaches the Agent Run Service.
 * The GitHub adapter answers from the collaborator permission endpoint; `author_association`
 * on the webhook is only a cheap first filter at the ingress.
 */

/** GitHub's repository roles, weakest first (GITHUB_MIN_PERMISSION takes one of these). */
export const REPO_PERMISSIONS = ['read', 'triage', 'write', 'maintain', 'admin'] as const;
export type RepoPermission = (typeof REPO_PERMISSIONS)[number];

export type RepoAccessVerdict =
  /** The person's role reaches the minimum. */
  | { kind: 'allowed'; role: RepoPermission }
  /** GitHub answered: the person's role (or `none`) is below `required`. */
  | { kind: 'refused'; role: RepoPermission | 'none'; required: RepoPermission }
  /** GitHub could not be asked (5xx, timeout, rate limit): never taken as allowed. */
  | { kind: 'unknown'; reason: string };

export interface RepoAccess {
  check(q: { owner: string; repo: string; login: string }): Promise<RepoAccessVerdict>;
}

/** Whether `role` is at least `minimum` (`maintain` and `admin` pass a `write` minimum). */
export function reaches(role: RepoPermission | 'none', minimum: RepoPermission): boolean {
  if (role === 'none') return false;
  return REPO_PERMISSIONS.indexOf(role) >= REPO_PERMISSIONS.indexOf(minimum);
}

/** What a person asks to do in a place: act there (start, steer, cancel) or change its defaults. */
export type PlaceRight = 'act' | 'configure';

export type PlaceAccessVerdict =
  /** `admin`/`relayAdmin`: what the platform found the person to be, when it tells (Slack). */
  | { kind: 'allowed'; admin?: boolean; relayAdmin?: boolean }
  /**
   * The platform answered: the person lacks the right (`need` says which, in its words), or
   * `message` says the whole refusal in the platform's words.
   */
  | { kind: 'refused'; need: string; message?: string }
  /** The platform could not be asked: never taken as allowed (`message`: its own words). */
  | { kind: 'unknown'; reason: string; message?: string }
  /** The thread's platform answers no such question (its ingress decides who may). */
  | { kind: 'unanswered' };

export interface PlaceQuestion {
  threadKey: string;
  person: string;
  wants: PlaceRight;
  /** Where the person comes from, as the payload said (Slack: their own workspace). */
  personTeam?: string;
  /** The organisation the request came to, as the payload said (Slack: Enterprise Grid). */
  organization?: string;
}

/**
 * "May this person do this in the place of this thread?", for platforms whose places are not
 * GitHub repositories (Jira's projects). Asked by the runs after the acknowledgement.
 */
export interface PlaceAccess {
  checkPlace(q: PlaceQuestion): Promise<PlaceAccessVerdict>;
}

/** What a platform answers about access: GitHub's repository permission, another's places, or both. */
export type PlatformAccess = Partial<RepoAccess> & Partial<PlaceAccess>;
