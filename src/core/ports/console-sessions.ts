/**
 * What the console keeps in the store: its sessions (so sign-out and a change of who may
 * sign in end them at the next request, on every replica), the one-time values of sign-in
 * and install flows that were used (an OAuth `state` is good once), and which GitHub
 * account id a login in CONSOLE_GITHUB_USERS belonged to when it first signed in (a login
 * given up and taken by someone else does not carry the access over).
 */
export type ConsoleRole = 'operator' | 'viewer';

export interface ConsoleSessionRecord {
  /** SHA-256 of the cookie's token (the token itself is never stored). */
  id: string;
  /** `slack:T1/U1`, `github:583231`, `local:admin`. */
  operatorId: string;
  operatorName: string;
  via: 'slack' | 'github' | 'local';
  role: ConsoleRole;
  /**
   * Why the person was let in, re-checked against the current settings at each request:
   * `user` (a named list) or `team:<id>` / `org:<login>` (membership), `local`.
   */
  grounds: string;
  /** The session's CSRF token. */
  csrf: string;
  createdAt: number;
  expiresAt: number;
}

export interface ConsoleSessionRepo {
  create(record: ConsoleSessionRecord): Promise<void>;
  /** The live session with this id, if any. */
  get(id: string, now: number): Promise<ConsoleSessionRecord | undefined>;
  remove(id: string): Promise<void>;
  /** Delete sessions that ended before `now`; how many. */
  pruneExpired(now: number): Promise<number>;
}

export interface UsedOnceRepo {
  /**
   * Record `key` as used until `expiresAt`: true the first time, false when it was already
   * used (by this or another replica). Entries past their time are removed as it goes.
   */
  use(key: string, expiresAt: number, now: number): Promise<boolean>;
}

export interface LoginPinRepo {
  /**
   * The account id `login` is pinned to: `userId` when the login was not pinned yet (it is
   * now), else the id it was first seen with.
   */
  pin(login: string, userId: string, now: number): Promise<string>;
}
