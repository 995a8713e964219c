/**
 * An `AgentSessionEvent` as a neutral Trigger. One thread per agent session
 * (`linear:{organization}:{team}:{session}`), so a session's later messages follow up on its
 * run:
 *
 * - `created` (the issue delegated to the app, or the app mentioned): a fresh run whose prompt
 *   is the issue's identifier and title, then the prompt context Linear prepared (issue,
 *   comments, guidance), bounded;
 * - `prompted`: the person's message, in the same grammar as Slack and GitHub (a prompt is a
 *   follow-up; `status`, `cancel`, `stop`, `list` work); a `stop` signal is `stop` (interrupt
 *   the agent's turn, or cancel a run that cannot be interrupted).
 */
import type { Actor, Trigger } from '../../core/trigger.js';
import { encodeThreadKey, settingsScopeOf } from '../../core/thread-key.js';
import type { AgentSessionEvent } from './webhook-payload.js';

export type Interpreted =
  | { kind: 'trigger'; trigger: Trigger }
  | { kind: 'ignored'; reason: string }
  | { kind: 'refused'; reason: 'team_not_allowed'; threadKey: string; actor: Actor };

export interface ToTriggerOptions {
  deliveryId: string;
  receivedAt: string;
  /**
   * Teams allowed to start runs (LINEAR_ALLOWED_TEAMS); empty: all. Each is a team id, a key
   * (`ENG`: that key in any workspace the relay serves), or a key or id after its workspace's id
   * or URL key (`acme/ENG`: only Acme's).
   */
  allowedTeams: readonly string[];
  /** The workspace the event came from, as the organization gate let it in. */
  organization: { id: string; urlKey?: string };
  /** Bound on the prompt context carried to the run. */
  maxContextChars: number;
}

function bounded(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function promptOf(event: AgentSessionEvent, max: number): string {
  const issue = event.agentSession.issue;
  const head = [issue?.identifier, issue?.title].filter(Boolean).join(': ');
  const context =
    event.promptContext?.trim() ||
    [issue?.description ?? '', event.agentSession.comment?.body ?? ''].join('\n\n').trim();
  return bounded([head || 'Linear agent session', context].filter(Boolean).join('\n\n'), max);
}

/** Whether the team (of that workspace) is on the list; see ToTriggerOptions.allowedTeams. */
export function teamAllowed(
  allowed: readonly string[],
  team: { id: string; key?: string },
  organization: { id: string; urlKey?: string },
): boolean {
  if (allowed.length === 0) return true;
  const names = [team.id, ...(team.key === undefined ? [] : [team.key])];
  const orgs = [
    organization.id,
    ...(organization.urlKey === undefined ? [] : [organization.urlKey]),
  ];
  return allowed.some((entry) => {
    const cut = entry.indexOf('/');
    if (cut < 0) return names.includes(entry);
    return orgs.includes(entry.slice(0, cut)) && names.includes(entry.slice(cut + 1));
  });
}

export function toTrigger(event: AgentSessionEvent, options: ToTriggerOptions): Interpreted {
  const session = event.agentSession;
  const issue = session.issue;
  const teamId = issue?.team?.id ?? issue?.teamId;
  if (!teamId) return { kind: 'ignored', reason: 'session_without_issue_team' };
  const team = { id: teamId, ...(issue?.team?.key === undefined ? {} : { key: issue.team.key }) };
  const threadKey = encodeThreadKey({
    platform: 'linear',
    organization: event.organizationId,
    team: teamId,
    session: session.id,
  });
  if (!teamAllowed(options.allowedTeams, team, options.organization)) {
    const creator = session.creator;
    return {
      kind: 'refused',
      reason: 'team_not_allowed',
      threadKey,
      actor: { id: creator?.id ?? 'unknown', ...(creator?.name ? { name: creator.name } : {}) },
    };
  }
  // Linear-Delivery is a header outside the signature, and a redelivery is stamped anew: the
  // inbox dedupes on what the event is about (the session created, the message written).
  const about =
    event.action === 'created'
      ? `session:${session.id}`
      : event.agentActivity?.id
        ? `activity:${event.agentActivity.id}`
        : `delivery:${options.deliveryId}`;
  const base = {
    dedupeKey: `linear:${event.organizationId}:${about}`,
    platform: 'linear' as const,
    threadKey,
    addressed: true,
    deliveryId: options.deliveryId,
    receivedAt: options.receivedAt,
    settingsScope: settingsScopeOf(threadKey) ?? threadKey,
  };
  const url = issue?.url;
  if (event.action === 'created') {
    const creator = session.creator;
    return {
      kind: 'trigger',
      trigger: {
        ...base,
        kind: 'agent_session',
        actor: { id: creator?.id ?? 'unknown', ...(creator?.name ? { name: creator.name } : {}) },
        // The issue's words are a prompt whatever they start with (an issue titled "Cancel …").
        text: promptOf(event, options.maxContextChars),
        freshRun: true,
        context: url ? { permalink: url } : {},
        // The issue, so the console and the outcome can point at where the run was asked for.
        ...(url && issue ? { triggerMessage: { threadKey, id: `issue:${issue.id}`, url } } : {}),
      },
    };
  }
  if (event.action === 'prompted') {
    const activity = event.agentActivity;
    if (!activity) return { kind: 'ignored', reason: 'prompt_without_activity' };
    const person = activity.user ?? (activity.userId ? { id: activity.userId } : session.creator);
    const stop = activity.signal === 'stop';
    const words = (activity.content.body ?? '').trim();
    if (!stop && words === '') return { kind: 'ignored', reason: 'empty_prompt' };
    return {
      kind: 'trigger',
      trigger: {
        ...base,
        kind: 'agent_prompt',
        actor: {
          id: person?.id ?? 'unknown',
          ...(person && 'name' in person && person.name ? { name: person.name } : {}),
        },
        text: stop ? 'stop' : bounded(words, options.maxContextChars),
        context: {},
      },
    };
  }
  return { kind: 'ignored', reason: `action_${event.action}` };
}
