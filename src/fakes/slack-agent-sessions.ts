/**
 * The fake Slack's agent sessions: `agents.sessions.setStatus` (creating a session on first
 * use, with its title and initiator) and `agents.sessions.rename`, kept per thread with every
 * status it was given and when; a workspace without sessions answers `not_authorized`. And
 * Slack's side of Stop: `agent_session_stopped`, as an Events API request signed with the
 * app's signing secret, sent to the relay.
 */
import { signSlack } from './sign-requests.js';

export const SESSION_STATUSES = ['active', 'processing', 'suspended', 'closed'] as const;

export interface FakeAgentSession {
  channel: string;
  threadTs: string;
  title?: string;
  initiator?: string;
  status: string;
  /** Every status set, in order, with the fake's clock (epoch ms). */
  history: { status: string; at: number }[];
  /** Stop clicks sent to the app (epoch ms). */
  stops: number[];
}

export interface FakeAgentSessions {
  /** The session of a thread, if one was made. */
  get(channel: string, threadTs: string): FakeAgentSession | undefined;
  all(): FakeAgentSession[];
  /** false: every agents.sessions.* call answers `not_authorized` (an app without sessions). */
  supported: boolean;
  /**
   * When set, every thread already has a session Slack made itself with this title (the person
   * opened the thread in the agent pane): `setStatus` keeps that title and ignores the one it is
   * given, as Slack documents ("only used when creating a new session":
   * https://docs.slack.dev/reference/methods/agents.sessions.setStatus). Its answer carries the
   * session's title, as `AgentsSessionsSetStatusResponse` in `@slack/web-api` has it.
   */
  slackMadeTitle: string | undefined;
  /**
   * Someone clicked Stop in the thread's session: Slack sends `agent_session_stopped` to the
   * app's events URL, signed. Answers the app's HTTP response.
   */
  stop(input: {
    eventsUrl: string;
    signingSecret: string;
    channel: string;
    threadTs: string;
    user: string;
    teamId?: string;
    eventId?: string;
  }): Promise<Response>;
}

type Answer = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export function createFakeAgentSessions(now: () => number): FakeAgentSessions & {
  answer(method: string, p: Record<string, unknown>): Answer | undefined;
} {
  const sessions = new Map<string, FakeAgentSession>();
  const key = (channel: string, threadTs: string) => `${channel}:${threadTs}`;
  let events = 0;

  const self = {
    supported: true,
    slackMadeTitle: undefined as string | undefined,
    get: (channel: string, threadTs: string) => sessions.get(key(channel, threadTs)),
    all: () => [...sessions.values()],

    answer(method: string, p: Record<string, unknown>): Answer | undefined {
      if (method !== 'agents.sessions.setStatus' && method !== 'agents.sessions.rename') {
        return undefined;
      }
      if (!self.supported) return { ok: false, error: 'not_authorized' };
      const channel = str(p.channel_id);
      const threadTs = str(p.thread_ts);
      if (channel === undefined || threadTs === undefined) {
        return { ok: false, error: 'invalid_arguments' };
      }
      const existing = sessions.get(key(channel, threadTs));
      if (method === 'agents.sessions.rename') {
        const title = str(p.title);
        if (title === undefined || title.length === 0 || title.length > 200)
          return { ok: false, error: 'invalid_title' };
        if (existing === undefined) return { ok: false, error: 'session_not_found' };
        existing.title = title;
        return { ok: true, title };
      }
      const status = str(p.status);
      if (status === undefined || !(SESSION_STATUSES as readonly string[]).includes(status)) {
        return { ok: false, error: 'invalid_status' };
      }
      const session = existing ?? {
        channel,
        threadTs,
        status,
        history: [],
        stops: [],
        ...(self.slackMadeTitle !== undefined
          ? { title: self.slackMadeTitle }
          : str(p.title)
            ? { title: str(p.title) }
            : {}),
        ...(str(p.initiator_user_id) ? { initiator: str(p.initiator_user_id) } : {}),
      };
      session.status = status;
      session.history.push({ status, at: now() });
      sessions.set(key(channel, threadTs), session);
      return { ok: true, status, ...(session.title ? { title: session.title } : {}) };
    },

    async stop(input: Parameters<FakeAgentSessions['stop']>[0]): Promise<Response> {
      sessions.get(key(input.channel, input.threadTs))?.stops.push(now());
      const teamId = input.teamId ?? 'T0000001';
      events += 1;
      const body = JSON.stringify({
        token: 'legacy-verification-token',
        team_id: teamId,
        api_app_id: 'A0000001',
        type: 'event_callback',
        event_id: input.eventId ?? `EvStop${String(events).padStart(6, '0')}`,
        event_time: Math.floor(now() / 1000),
        authorizations: [{ team_id: teamId, user_id: 'UBOT0001', is_bot: true }],
        event: {
          type: 'agent_session_stopped',
          channel: input.channel,
          user: input.user,
          thread_ts: input.threadTs,
          streaming_message_ts: [],
          event_ts: `${Math.floor(now() / 1000)}.000100`,
        },
      });
      return fetch(input.eventsUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...signSlack(body, input.signingSecret),
        },
        body,
      });
    },
  };
  return self;
}
