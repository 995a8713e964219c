/**
 * Slack request helpers for tests: build real-shaped payloads, and POST them signed the way
 * Slack signs them (src/fakes/sign-requests.ts).
 */
import { signSlack } from '../../src/fakes/sign-requests.js';
import type { FakeSlackApi } from '../../src/fakes/slack-web-api.js';

export const TEST_SIGNING_SECRET = 'test-signing-secret-0123456789abcdef';

export interface PostSlackOptions {
  secret?: string;
  /** Seconds since the epoch; default now. */
  timestampSec?: number;
  /** Default: form for `payload=`/slash bodies, JSON otherwise (decided by the caller). */
  contentType?: 'application/json' | 'application/x-www-form-urlencoded';
  headers?: Record<string, string>;
  /** Replace the computed signature (bad-signature tests). */
  signature?: string;
}

/** POST a signed body to a Slack endpoint (`…/slack/events`). */
export async function postSlack(
  url: string,
  body: string,
  options: PostSlackOptions = {},
): Promise<Response> {
  const timestampSec = options.timestampSec ?? Math.floor(Date.now() / 1000);
  const signed = signSlack(body, options.secret ?? TEST_SIGNING_SECRET, timestampSec);
  const contentType =
    options.contentType ??
    (body.trimStart().startsWith('{') ? 'application/json' : 'application/x-www-form-urlencoded');
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': contentType,
      ...signed,
      ...(options.signature === undefined ? {} : { 'x-slack-signature': options.signature }),
      ...options.headers,
    },
    body,
  });
}

export function formBody(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

// ---------------------------------------------------------------------------------------
// Real-shaped payloads

export interface EventOptions {
  eventId?: string;
  teamId?: string;
  apiAppId?: string;
  /** Enterprise Grid: the organisation, and whether the app is installed org-wide. */
  enterpriseId?: string;
  isEnterpriseInstall?: boolean;
  /** The bot user the event is authorized for. */
  botUserId?: string;
}

let eventCounter = 0;

/** An Events API `event_callback` body around `event`. */
export function eventCallback(event: Record<string, unknown>, options: EventOptions = {}): string {
  const teamId = options.teamId ?? 'T0000001';
  const enterpriseId = options.enterpriseId ?? null;
  return JSON.stringify({
    token: 'legacy-verification-token',
    team_id: teamId,
    ...(enterpriseId === null ? {} : { enterprise_id: enterpriseId }),
    api_app_id: options.apiAppId ?? 'A0000001',
    event,
    type: 'event_callback',
    event_id: options.eventId ?? `Ev${String(++eventCounter).padStart(8, '0')}`,
    event_time: 1700000000,
    authorizations: [
      {
        enterprise_id: enterpriseId,
        team_id: teamId,
        user_id: options.botUserId ?? 'UBOT0001',
        is_bot: true,
        is_enterprise_install: options.isEnterpriseInstall ?? false,
      },
    ],
    is_ext_shared_channel: false,
    event_context: '4-eyJldCI6ImFwcF9tZW50aW9uIn0',
  });
}

export function appMentionEvent(fields: {
  user?: string;
  text: string;
  ts: string;
  channel?: string;
  thread_ts?: string;
  bot_id?: string;
}): Record<string, unknown> {
  return {
    type: 'app_mention',
    user: fields.user ?? 'UALICE01',
    text: fields.text,
    ts: fields.ts,
    channel: fields.channel ?? 'CGENERAL1',
    event_ts: fields.ts,
    team: 'T0000001',
    client_msg_id: '6f2b4c1e-0000-4000-8000-000000000001',
    ...(fields.thread_ts ? { thread_ts: fields.thread_ts } : {}),
    ...(fields.bot_id ? { bot_id: fields.bot_id } : {}),
  };
}

export function messageEvent(fields: {
  user?: string;
  text: string;
  ts: string;
  channel?: string;
  channel_type?: 'channel' | 'group' | 'im' | 'mpim';
  thread_ts?: string;
  bot_id?: string;
  subtype?: string;
}): Record<string, unknown> {
  const channelType = fields.channel_type ?? 'channel';
  return {
    type: 'message',
    ...(fields.subtype ? { subtype: fields.subtype } : {}),
    ...(fields.bot_id ? { bot_id: fields.bot_id } : { user: fields.user ?? 'UALICE01' }),
    text: fields.text,
    ts: fields.ts,
    channel: fields.channel ?? (channelType === 'im' ? 'DALICE001' : 'CGENERAL1'),
    channel_type: channelType,
    event_ts: fields.ts,
    team: 'T0000001',
    ...(fields.thread_ts ? { thread_ts: fields.thread_ts } : {}),
  };
}

/** A slash command's form body. */
export function slashCommandBody(fields: {
  text: string;
  user?: string;
  channel?: string;
  command?: string;
  triggerId?: string;
  /** Default: a Slack-looking URL nothing answers (private answers then use chat.postEphemeral). */
  responseUrl?: string;
  /** The workspace the command came from; default T0000001. */
  team?: string;
}): string {
  return formBody({
    token: 'legacy-verification-token',
    team_id: fields.team ?? 'T0000001',
    team_domain: 'fake',
    channel_id: fields.channel ?? 'CGENERAL1',
    channel_name: 'general',
    user_id: fields.user ?? 'UALICE01',
    user_name: 'alice',
    command: fields.command ?? '/agent',
    text: fields.text,
    api_app_id: 'A0000001',
    is_enterprise_install: 'false',
    response_url: fields.responseUrl ?? 'https://hooks.slack.test/commands/T0000001/1/abc',
    trigger_id: fields.triggerId ?? `13345224609.738474920.${++eventCounter}`,
  });
}

/** A `block_actions` form body: a button clicked on a message of the bot. */
export function blockActionsBody(fields: {
  actionId: string;
  value?: string;
  user?: string;
  channel?: string;
  messageTs: string;
  threadTs?: string;
  actionTs?: string;
  /** A button on a private (ephemeral) message: Slack sends no `message` then. */
  ephemeral?: boolean;
  /** The workspace the click came to; default T0000001. */
  team?: string;
  /** The clicker's own workspace (Slack Connect: another organisation's); default `team`. */
  userTeam?: string;
}): string {
  const channel = fields.channel ?? 'CGENERAL1';
  const team = fields.team ?? 'T0000001';
  const payload = {
    type: 'block_actions',
    user: {
      id: fields.user ?? 'UALICE01',
      username: 'alice',
      name: 'alice',
      team_id: fields.userTeam ?? team,
    },
    api_app_id: 'A0000001',
    token: 'legacy-verification-token',
    container: {
      type: 'message',
      message_ts: fields.messageTs,
      channel_id: channel,
      is_ephemeral: fields.ephemeral === true,
      ...(fields.threadTs ? { thread_ts: fields.threadTs } : {}),
    },
    trigger_id: `13345224609.738474920.${++eventCounter}`,
    team: { id: team, domain: 'fake' },
    enterprise: null,
    is_enterprise_install: false,
    channel: { id: channel, name: 'general' },
    ...(fields.ephemeral
      ? {}
      : {
          message: {
            type: 'message',
            user: 'UBOT0001',
            bot_id: 'BBOT0001',
            ts: fields.messageTs,
            text: 'status',
            ...(fields.threadTs ? { thread_ts: fields.threadTs } : {}),
          },
        }),
    response_url: 'https://hooks.slack.test/actions/T0000001/1/abc',
    actions: [
      {
        action_id: fields.actionId,
        block_id: 'agent_relay_run_actions',
        text: { type: 'plain_text', text: 'Cancel', emoji: true },
        value: fields.value,
        style: 'danger',
        type: 'button',
        action_ts: fields.actionTs ?? `1700000100.${String(++eventCounter).padStart(6, '0')}`,
      },
    ],
  };
  return formBody({ payload: JSON.stringify(payload) });
}

/**
 * A thread in `channel` of the fake Slack: its root, then its replies, each `[user, text]`
 * (someone spoke). Their timestamps, the root's first.
 */
export function seedThread(
  api: Pick<FakeSlackApi, 'seedMessage'>,
  channel: string,
  [rootUser, rootText]: [string, string],
  ...replies: [string, string][]
): [root: string, ...replies: string[]] {
  const root = api.seedMessage({ channel, user: rootUser, text: rootText });
  return [
    root,
    ...replies.map(([user, text]) => api.seedMessage({ channel, user, text, thread_ts: root })),
  ];
}
