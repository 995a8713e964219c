/**
 * Real-shaped payloads of Slack's app surfaces: App Home (`app_home_opened`, buttons in a
 * view), modals (`view_submission`), message shortcuts (`message_action`) and the agent pane
 * (`assistant_thread_started`, `assistant_thread_context_changed`).
 */
import { formBody } from './slack.js';

let counter = 0;
const next = () => String(++counter).padStart(6, '0');

function user(id: string, team: string) {
  return { id, username: id.toLowerCase(), name: id.toLowerCase(), team_id: team };
}

export function appHomeOpenedEvent(fields: {
  user: string;
  channel?: string;
  /** `messages`: the app's Messages tab (under `agent_view`, the agent pane opening). */
  tab?: 'home' | 'messages';
}) {
  return {
    type: 'app_home_opened',
    user: fields.user,
    channel: fields.channel ?? 'DHOME0001',
    tab: fields.tab ?? 'home',
    event_ts: `1700000200.${next()}`,
  };
}

/** A button clicked in a view (App Home or a modal). */
export function viewBlockActionsBody(fields: {
  team: string;
  user: string;
  actionId: string;
  value?: string;
  viewType?: 'home' | 'modal';
}): string {
  const payload = {
    type: 'block_actions',
    user: user(fields.user, fields.team),
    api_app_id: 'A0000001',
    token: 'legacy-verification-token',
    container: { type: 'view', view_id: 'VHOME0001' },
    trigger_id: `13345224609.738474920.${next()}`,
    team: { id: fields.team, domain: 'fake' },
    enterprise: null,
    is_enterprise_install: false,
    view: {
      id: 'VHOME0001',
      team_id: fields.team,
      type: fields.viewType ?? 'home',
      blocks: [],
      private_metadata: '',
      callback_id: '',
      state: { values: {} },
      hash: '1700000000.abcdef',
      app_id: 'A0000001',
      bot_id: 'BBOT0001',
    },
    actions: [
      {
        action_id: fields.actionId,
        block_id: 'home',
        text: { type: 'plain_text', text: 'button', emoji: true },
        ...(fields.value === undefined ? {} : { value: fields.value }),
        type: 'button',
        action_ts: `1700000300.${next()}`,
      },
    ],
  };
  return formBody({ payload: JSON.stringify(payload) });
}

/** A modal submitted: `values` are block id -> the plain text input's value (null: empty). */
export function viewSubmissionBody(fields: {
  team: string;
  user: string;
  callbackId: string;
  values: Record<string, string | null>;
  /** Blocks that are a static_select: the chosen option's value (null: none chosen). */
  selected?: Record<string, string | null>;
  privateMetadata?: string;
}): string {
  const values = Object.fromEntries([
    ...Object.entries(fields.values).map(([block, value]) => [
      block,
      { value: { type: 'plain_text_input', value } },
    ]),
    ...Object.entries(fields.selected ?? {}).map(([block, value]) => [
      block,
      {
        value: {
          type: 'static_select',
          selected_option:
            value === null ? null : { text: { type: 'plain_text', text: value }, value },
        },
      },
    ]),
  ]);
  const payload = {
    type: 'view_submission',
    team: { id: fields.team, domain: 'fake' },
    user: user(fields.user, fields.team),
    api_app_id: 'A0000001',
    token: 'legacy-verification-token',
    trigger_id: `13345224609.738474920.${next()}`,
    view: {
      id: 'VMODAL001',
      team_id: fields.team,
      type: 'modal',
      callback_id: fields.callbackId,
      private_metadata: fields.privateMetadata ?? '',
      state: { values },
      hash: '1700000000.abcdef',
      title: { type: 'plain_text', text: 'Form' },
      blocks: [],
      app_id: 'A0000001',
      bot_id: 'BBOT0001',
    },
    response_urls: [],
    is_enterprise_install: false,
    enterprise: null,
  };
  return formBody({ payload: JSON.stringify(payload) });
}

/** A message shortcut ("Send to agent") used on a message. */
export function messageActionBody(fields: {
  team: string;
  user: string;
  callbackId: string;
  channel: string;
  message: { ts: string; text: string; user?: string; thread_ts?: string };
}): string {
  const payload = {
    type: 'message_action',
    token: 'legacy-verification-token',
    action_ts: `1700000400.${next()}`,
    team: { id: fields.team, domain: 'fake' },
    user: user(fields.user, fields.team),
    channel: { id: fields.channel, name: 'general' },
    is_enterprise_install: false,
    enterprise: null,
    callback_id: fields.callbackId,
    trigger_id: `13345224609.738474920.${next()}`,
    response_url: `https://hooks.slack.test/app/${fields.team}/1/abc`,
    message_ts: fields.message.ts,
    message: {
      type: 'message',
      user: fields.message.user ?? 'UBOB00001',
      ts: fields.message.ts,
      text: fields.message.text,
      ...(fields.message.thread_ts ? { thread_ts: fields.message.thread_ts } : {}),
    },
  };
  return formBody({ payload: JSON.stringify(payload) });
}

/** The agent pane: a person opened an assistant thread (in a DM with the app). */
export function assistantThreadStartedEvent(fields: {
  user: string;
  channel: string;
  threadTs: string;
  contextChannel?: string;
  team: string;
}) {
  return {
    type: 'assistant_thread_started',
    assistant_thread: {
      user_id: fields.user,
      context: fields.contextChannel
        ? { channel_id: fields.contextChannel, team_id: fields.team, enterprise_id: null }
        : {},
      channel_id: fields.channel,
      thread_ts: fields.threadTs,
    },
    event_ts: `1700000500.${next()}`,
  };
}

export function assistantContextChangedEvent(fields: {
  user: string;
  channel: string;
  threadTs: string;
  contextChannel: string;
  team: string;
}) {
  return {
    type: 'assistant_thread_context_changed',
    assistant_thread: {
      user_id: fields.user,
      context: { channel_id: fields.contextChannel, team_id: fields.team, enterprise_id: null },
      channel_id: fields.channel,
      thread_ts: fields.threadTs,
    },
    event_ts: `1700000500.${next()}`,
  };
}
