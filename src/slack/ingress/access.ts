/**
 * Who may use the bot in a place. SLACK_ALLOWED_CHANNELS / SLACK_ALLOWED_USERS: empty lists
 * allow everyone. The channel list applies to every conversation, direct messages included
 * (their ids start with D). Then the person (people.ts): guests and people of another
 * organisation are refused unless allowed, and whether they are an admin of agent-relay.
 */
import type { PlaceAccessVerdict, PlaceQuestion } from '../../core/ports/index.js';
import { decodeThreadKey } from '../../core/thread-key.js';
import type { Caller, People, PersonDenial } from './people.js';

export interface Allowlists {
  channels: readonly string[];
  users: readonly string[];
}

export type AccessDenial = 'channel' | 'user';
export type Denial = AccessDenial | PersonDenial;
export type Admission =
  { ok: true; admin: boolean; relayAdmin?: boolean } | { ok: false; denial: Denial };
/**
 * Whether this person may use the bot in this channel, and as what. Without a channel (App
 * Home, which is no conversation), the people rules only.
 */
export type Admit = (where: Caller & { channel?: string }) => Promise<Admission>;

export function checkAccess(
  lists: Allowlists,
  where: { channel?: string; user: string },
): AccessDenial | undefined {
  if (
    where.channel !== undefined &&
    lists.channels.length > 0 &&
    !lists.channels.includes(where.channel)
  )
    return 'channel';
  if (lists.users.length > 0 && !lists.users.includes(where.user)) return 'user';
  return undefined;
}

export function createAdmit(lists: Allowlists, people?: People): Admit {
  return async (where) => {
    const denial = checkAccess(lists, where);
    if (denial !== undefined) return { ok: false, denial };
    return people === undefined ? { ok: true, admin: false } : people.check(where);
  };
}

const REFUSALS: Record<Denial, string> = {
  channel: "Sorry, I'm not enabled in this conversation. Ask whoever runs agent-relay to allow it.",
  user: "Sorry, you're not on the list of people who may use agent-relay. Ask whoever runs it to add you.",
  external:
    "Sorry, agent-relay here serves this workspace's own members, not people of other organisations in a shared channel.",
  guest:
    "Sorry, guests of this workspace can't use agent-relay. Ask whoever runs it if you need to.",
  unverified:
    "Sorry, I couldn't check who you are with Slack just now. Please try again in a minute.",
};

/** Plain words for the person who was refused (shown to them only). */
export function refusalText(denial: Denial): string {
  return REFUSALS[denial];
}

/**
 * The runs' question, after the acknowledgement: who the person is (people.ts), in the
 * workspace of the thread. A refusal is said in the words above; Slack not answering is
 * "unknown" (try again), never allowed when it matters. A `config` change needs an admin.
 */
export async function answerPlace(people: People, q: PlaceQuestion): Promise<PlaceAccessVerdict> {
  const place = decodeThreadKey(q.threadKey);
  if (place?.platform !== 'slack') return { kind: 'unanswered' };
  const verdict = await people.check({
    team: place.team,
    enterprise: q.organization,
    user: q.person,
    userTeam: q.personTeam,
  });
  if (!verdict.ok) {
    const message = refusalText(verdict.denial);
    return verdict.denial === 'unverified'
      ? { kind: 'unknown', reason: 'Slack did not say who the person is', message }
      : { kind: 'refused', need: verdict.denial, message };
  }
  if (q.wants === 'configure' && !verdict.admin)
    return { kind: 'refused', need: 'administer agent-relay' };
  return { kind: 'allowed', admin: verdict.admin, relayAdmin: verdict.relayAdmin === true };
}
