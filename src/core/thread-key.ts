/**
 * Thread keys (docs/architecture.md, "Threads and runs"): opaque strings with the platform first. This
 * module is their only encoder and decoder; everything else treats a key as an opaque string.
 *
 * - Slack: `slack:{team}:{channel}:{thread_ts}` (thread_ts '' = not yet anchored: a slash
 *   command whose status message will become the thread)
 * - GitHub issue or PR conversation: `github:{owner}/{repo}#{number}`
 * - GitHub review-comment thread: `github:{owner}/{repo}#{number}/r{root_comment_id}`
 * - Linear agent session: `linear:{organization_id}:{team_id}:{agent_session_id}` (Linear's
   ids; the team is the place whose defaults apply and whose runs `list` shows)
 * - Jira issue: `jira:{site}:{issue key}` (the site's host name, e.g. `acme.atlassian.net`,
 *   and the issue's key, `PROJ-123`; the project is the place whose defaults apply)
 * - Teams: `teams:{tenant}:{conversation}:{root activity}` (the Entra tenant id; the
 *   conversation's id without its `;messageid=` part, e.g. `19:…@thread.tacv2`, which may
 *   hold colons; the id of the channel thread's first message, '' for a chat, which is one
 *   thread; the conversation is the place whose defaults apply)
 *
 * Pieces are kept as given (no case folding), so `decode(encode(a))` equals `a`.
 */
import type { Platform } from './trigger.js';
import { RelayError } from './relay-error.js';

export type ThreadAddress =
  | {
      platform: 'slack';
      team: string;
      channel: string;
      /** '' = not yet anchored (slash command). */
      threadTs: string;
    }
  | {
      platform: 'github';
      owner: string;
      repo: string;
      number: number;
      reviewCommentId?: number;
    }
  | {
      platform: 'linear';
      organization: string;
      team: string;
      session: string;
    }
  | {
      platform: 'jira';
      /** The site's host name (`acme.atlassian.net`). */
      site: string;
      /** The issue's key (`PROJ-123`); its project is the part before the hyphen. */
      issueKey: string;
    }
  | {
      platform: 'teams';
      /** The Entra tenant id. */
      tenant: string;
      /** The conversation's id (channel, group chat, 1:1), without `;messageid=`. */
      conversation: string;
      /** The channel thread's root message id; '' for a chat (the chat is one thread). */
      root: string;
    };

export class InvalidThreadAddressError extends RelayError<'invalid_thread_address'> {
  override readonly name = 'InvalidThreadAddressError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('invalid_thread_address', message, options);
  }
}

/** Slack team/enterprise/channel ids are alphanumeric (T…, E…, C…, D…, G…). */
const SLACK_ID = /^[A-Za-z0-9]{1,64}$/;
/** Slack message timestamps: `1712345678.123456`. */
const SLACK_TS = /^(?:\d{1,20}\.\d{1,20})?$/;
/** GitHub logins/orgs: alphanumerics and hyphens, not starting with a hyphen, at most 39. */
const GITHUB_OWNER = /^[A-Za-z0-9][A-Za-z0-9-]{0,38}$/;
/** GitHub repository names: alphanumerics, '.', '_', '-', at most 100, not '.' or '..'. */
const GITHUB_REPO = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,100}$/;
const POSITIVE_INT = /^[1-9]\d{0,15}$/;
/** Linear ids are UUIDs; any short run of letters, digits and hyphens is accepted. */
const LINEAR_ID = /^[A-Za-z0-9-]{1,64}$/;
const LINEAR_KEY = /^linear:([^:]*):([^:]*):([^:]*)$/;
/** A host name: labels of letters, digits and hyphens, joined by dots. */
const JIRA_SITE =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*$/;
/** Jira issue keys: a project key (a letter, then letters, digits, `_`) and a number. */
const JIRA_ISSUE_KEY = /^([A-Za-z][A-Za-z0-9_]{0,254})-([1-9]\d{0,15})$/;
const JIRA_KEY = /^jira:([^:]*):([^:]*)$/;
/** Entra tenant ids are GUIDs; any short run of letters, digits and hyphens is accepted. */
const TEAMS_TENANT = /^[A-Za-z0-9-]{1,64}$/;
/** Teams conversation ids: `19:…@thread.tacv2`, `a:…`, `19:…@unq.gbl.spaces` (no `;`). */
const TEAMS_CONVERSATION = /^[A-Za-z0-9][A-Za-z0-9:@._=+-]{0,299}$/;
/** Teams message ids are digits (`1712345678901`); '' names a chat's one thread. */
const TEAMS_ROOT = /^(?:[A-Za-z0-9._-]{1,64})?$/;
const TEAMS_KEY = /^teams:([^:]*):(.*):([^:]*)$/;

const SLACK_KEY = /^slack:([^:]*):([^:]*):([^:]*)$/;
const GITHUB_KEY = /^github:([^/#]*)\/([^/#]*)#([^/#]*)(?:\/r([^/#]*))?$/;

function isPositiveInt(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0;
}

function parsePositiveInt(s: string | undefined): number | undefined {
  if (s === undefined || !POSITIVE_INT.test(s)) return undefined;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : undefined;
}

export function isValidThreadAddress(addr: ThreadAddress): boolean {
  if (addr.platform === 'slack') {
    return SLACK_ID.test(addr.team) && SLACK_ID.test(addr.channel) && SLACK_TS.test(addr.threadTs);
  }
  if (addr.platform === 'jira') {
    return JIRA_SITE.test(addr.site) && JIRA_ISSUE_KEY.test(addr.issueKey);
  }
  if (addr.platform === 'teams') {
    return (
      TEAMS_TENANT.test(addr.tenant) &&
      TEAMS_CONVERSATION.test(addr.conversation) &&
      TEAMS_ROOT.test(addr.root)
    );
  }
  if (addr.platform === 'linear') {
    return (
      LINEAR_ID.test(addr.organization) && LINEAR_ID.test(addr.team) && LINEAR_ID.test(addr.session)
    );
  }
  return (
    GITHUB_OWNER.test(addr.owner) &&
    GITHUB_REPO.test(addr.repo) &&
    isPositiveInt(addr.number) &&
    (addr.reviewCommentId === undefined || isPositiveInt(addr.reviewCommentId))
  );
}

/** Encode an address. Throws `InvalidThreadAddressError` when a piece is malformed. */
export function encodeThreadKey(addr: ThreadAddress): string {
  if (!isValidThreadAddress(addr)) {
    throw new InvalidThreadAddressError(`invalid ${addr.platform} thread address`);
  }
  if (addr.platform === 'slack') return `slack:${addr.team}:${addr.channel}:${addr.threadTs}`;
  if (addr.platform === 'linear') return `linear:${addr.organization}:${addr.team}:${addr.session}`;
  if (addr.platform === 'jira') return `jira:${addr.site}:${addr.issueKey}`;
  if (addr.platform === 'teams') return `teams:${addr.tenant}:${addr.conversation}:${addr.root}`;
  const base = `github:${addr.owner}/${addr.repo}#${addr.number}`;
  return addr.reviewCommentId === undefined ? base : `${base}/r${addr.reviewCommentId}`;
}

/** Decode a key; `undefined` for anything that is not a valid key. Never throws. */
export function decodeThreadKey(key: string): ThreadAddress | undefined {
  if (typeof key !== 'string' || key.length > 512) return undefined;
  const slack = SLACK_KEY.exec(key);
  if (slack) {
    const [, team = '', channel = '', threadTs = ''] = slack;
    const addr: ThreadAddress = { platform: 'slack', team, channel, threadTs };
    return isValidThreadAddress(addr) ? addr : undefined;
  }
  const linear = LINEAR_KEY.exec(key);
  if (linear) {
    const [, organization = '', team = '', session = ''] = linear;
    const addr: ThreadAddress = { platform: 'linear', organization, team, session };
    return isValidThreadAddress(addr) ? addr : undefined;
  }
  const jira = JIRA_KEY.exec(key);
  if (jira) {
    const [, site = '', issueKey = ''] = jira;
    const addr: ThreadAddress = { platform: 'jira', site, issueKey };
    return isValidThreadAddress(addr) ? addr : undefined;
  }
  const teams = TEAMS_KEY.exec(key);
  if (teams) {
    const [, tenant = '', conversation = '', root = ''] = teams;
    const addr: ThreadAddress = { platform: 'teams', tenant, conversation, root };
    return isValidThreadAddress(addr) ? addr : undefined;
  }
  const gh = GITHUB_KEY.exec(key);
  if (gh) {
    const [, owner = '', repo = '', numberText, reviewText] = gh;
    const number = parsePositiveInt(numberText);
    if (number === undefined) return undefined;
    const addr: ThreadAddress = { platform: 'github', owner, repo, number };
    if (reviewText !== undefined) {
      const reviewCommentId = parsePositiveInt(reviewText);
      if (reviewCommentId === undefined) return undefined;
      addr.reviewCommentId = reviewCommentId;
    }
    return isValidThreadAddress(addr) ? addr : undefined;
  }
  return undefined;
}

/**
 * The scope whose defaults apply: `slack:{team}:{channel}`, `github:{owner}/{repo}`,
 * `linear:{organization}:{team}`, `jira:{site}:{project}` or `teams:{tenant}:{conversation}`.
 * Given a key that does not decode, `undefined`.
 */
export function settingsScopeOf(addr: ThreadAddress): string;
export function settingsScopeOf(key: string): string | undefined;
export function settingsScopeOf(addrOrKey: ThreadAddress | string): string | undefined {
  const addr = typeof addrOrKey === 'string' ? decodeThreadKey(addrOrKey) : addrOrKey;
  if (addr === undefined) return undefined;
  if (addr.platform === 'linear') return `linear:${addr.organization}:${addr.team}`;
  if (addr.platform === 'jira') return `jira:${addr.site}:${jiraProjectOf(addr.issueKey)}`;
  if (addr.platform === 'teams') return `teams:${addr.tenant}:${addr.conversation}`;
  return addr.platform === 'slack'
    ? `slack:${addr.team}:${addr.channel}`
    : `github:${addr.owner}/${addr.repo}`;
}

/** The settings scope of one person's own defaults (Slack: per workspace), if the platform has them. */
export function personalScopeOf(key: string, personId: string): string | undefined {
  const addr = decodeThreadKey(key);
  return addr?.platform === 'slack' ? `slack-user:${addr.team}:${personId}` : undefined;
}

/**
 * The tenant a thread belongs to: a Slack workspace (`slack:{team}`), a GitHub account
 * (`github:{owner}`), a Linear workspace (`linear:{organization}`), a Jira site
 * (`jira:{site}`), an Entra tenant (`teams:{tenant}`). A tenant's own admins administer its places and runs, never another
 * tenant's. `undefined` when the key does not decode.
 */
export function tenantOf(key: string): string | undefined {
  const addr = decodeThreadKey(key);
  if (addr === undefined) return undefined;
  if (addr.platform === 'slack') return `slack:${addr.team}`;
  if (addr.platform === 'linear') return `linear:${addr.organization}`;
  if (addr.platform === 'jira') return `jira:${addr.site}`;
  if (addr.platform === 'teams') return `teams:${addr.tenant}`;
  return `github:${addr.owner}`;
}

/** The project key of a Jira issue key (`PROJ` of `PROJ-123`). */
export function jiraProjectOf(issueKey: string): string {
  return JIRA_ISSUE_KEY.exec(issueKey)?.[1] ?? '';
}

/** The platform of a key, or `undefined` when the key does not decode. */
export function platformOf(key: string): Platform | undefined {
  return decodeThreadKey(key)?.platform;
}
