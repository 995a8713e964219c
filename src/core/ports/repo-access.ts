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
