/**
 * Who a Slack person is, for what they may do: an admin of agent-relay (`SLACK_ADMIN_USERS`,
 * across every tenant), else an admin of this workspace (its own admins and owners, for this
 * workspace only), a guest of the workspace (restricted or
 * ultra-restricted), or someone of another organisation in a Slack Connect channel. Slack's
 * `users.info` says, asked once per person and remembered for a few minutes.
 *
 * Guests and external people are refused unless the operator allows them. When Slack cannot
 * be asked and the answer matters (guests are refused), the person is refused for now
 * ("try again") rather than let in unchecked.
 */
import { z } from 'zod';
import type { Clock, Logger } from '../../core/ports/index.js';

export interface PeoplePolicy {
  /** Admins of agent-relay; empty: the workspace's admins and owners. */
  adminUsers: readonly string[];
  allowGuests: boolean;
  allowExternalUsers: boolean;
}

/** A person acting in a workspace the relay serves. */
export interface Caller {
  /** The workspace the request came to (the installation's). */
  team: string;
  /** Its Enterprise Grid organisation, when there is one. */
  enterprise?: string | undefined;
  user: string;
  /** The person's own workspace as the payload names it (Slack Connect: theirs). */
  userTeam?: string | undefined;
}

export type PersonDenial = 'external' | 'guest' | 'unverified';
/**
 * `admin`: of this workspace (its own admins and owners, or a person the operator named);
 * `relayAdmin`: of the whole relay, only a person the operator named in SLACK_ADMIN_USERS.
 */
export type PersonVerdict =
  { ok: true; admin: boolean; relayAdmin?: boolean } | { ok: false; denial: PersonDenial };

export interface People {
  check(caller: Caller): Promise<PersonVerdict>;
}

const UserInfo = z.object({
  user: z.object({
    team_id: z.string().optional(),
    is_admin: z.boolean().optional(),
    is_owner: z.boolean().optional(),
    is_primary_owner: z.boolean().optional(),
    is_restricted: z.boolean().optional(),
    is_ultra_restricted: z.boolean().optional(),
    enterprise_user: z.object({ enterprise_id: z.string().optional() }).nullish(),
  }),
});

interface Facts {
  admin: boolean;
  guest: boolean;
  teamId?: string | undefined;
  enterpriseId?: string | undefined;
}

export interface PeopleDeps {
  policy: PeoplePolicy;
  /** Slack's `users.info` for this person, with the workspace's bot token. */
  usersInfo(team: string, user: string): Promise<unknown>;
  clock: Clock;
  logger: Logger;
  /** How long an answer is remembered; default 5 minutes. */
  ttlMs?: number;
}

/** Somewhere other than the workspace (or organisation) the request came to. */
function elsewhere(caller: Caller, team: string | undefined, enterprise?: string): boolean {
  if (team === undefined || team === caller.team) return false;
  if (
    caller.enterprise !== undefined &&
    (team === caller.enterprise || enterprise === caller.enterprise)
  )
    return false;
  return true;
}

export function createPeople(deps: PeopleDeps): People {
  const log = deps.logger.child({ component: 'slack-people' });
  const ttl = deps.ttlMs ?? 5 * 60_000;
  const known = new Map<string, { at: number; facts: Promise<Facts> }>();
  const { policy } = deps;
  const needsSlack = !policy.allowGuests || policy.adminUsers.length === 0;

  function factsOf(team: string, user: string): Promise<Facts> {
    const key = `${team}:${user}`;
    const now = deps.clock.now();
    const hit = known.get(key);
    if (hit !== undefined && now - hit.at < ttl) return hit.facts;
    if (known.size > 10_000) known.clear();
    const facts = deps.usersInfo(team, user).then((raw) => {
      const u = UserInfo.parse(raw).user;
      return {
        admin: u.is_admin === true || u.is_owner === true || u.is_primary_owner === true,
        guest: u.is_restricted === true || u.is_ultra_restricted === true,
        teamId: u.team_id,
        enterpriseId: u.enterprise_user?.enterprise_id,
      };
    });
    known.set(key, { at: now, facts });
    // A failed answer is not remembered: the next request asks again.
    facts.catch(() => known.delete(key));
    return facts;
  }

  return {
    async check(caller) {
      // The payload names the person's own workspace; within an Enterprise Grid organisation
      // another workspace may still be the same organisation, which users.info tells.
      const otherTeam = !policy.allowExternalUsers && elsewhere(caller, caller.userTeam);
      if (otherTeam && caller.enterprise === undefined) return { ok: false, denial: 'external' };
      const listedAdmin = policy.adminUsers.includes(caller.user);
      const named = listedAdmin ? { relayAdmin: true } : {};
      if (!needsSlack && !otherTeam) return { ok: true, admin: listedAdmin, ...named };
      let facts: Facts;
      try {
        facts = await factsOf(caller.team, caller.user);
      } catch (err) {
        log.warn({ err, user: caller.user }, 'Slack users.info failed; who this is is unknown');
        if (!policy.allowGuests || otherTeam) return { ok: false, denial: 'unverified' };
        return { ok: true, admin: listedAdmin, ...named };
      }
      const external = elsewhere(caller, facts.teamId, facts.enterpriseId);
      if (external && !policy.allowExternalUsers) return { ok: false, denial: 'external' };
      if (facts.guest && !policy.allowGuests) return { ok: false, denial: 'guest' };
      // A workspace admin of another organisation is no admin here.
      const admin =
        policy.adminUsers.length > 0 ? listedAdmin : facts.admin && !external && !facts.guest;
      return { ok: true, admin, ...named };
    },
  };
}
