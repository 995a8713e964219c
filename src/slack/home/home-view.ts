/**
 * The App Home tab as Block Kit (pure): the viewer's runs (live first, then recent) with
 * state, where each was started (a link to its thread), session and pull-request links, run
 * time and a Cancel button while live; the viewer's own defaults with an Edit button; the
 * runs of channels the viewer is in, collapsed behind a button.
 */
import type { KnownBlock } from '../render/blocks.js';
import type { RunView } from '../../core/message/message-model.js';
import { escapeMrkdwn, link, truncatePlain } from '../render/mrkdwn.js';
import { costInWords } from '../../core/message/usage-text.js';
import type { PersonalDefaults } from './home-source.js';
import { PERSONAL_KEYS } from './home-source.js';

export const HOME_CANCEL_ACTION_ID = 'agent_relay_home_cancel';
export const HOME_EDIT_DEFAULTS_ACTION_ID = 'agent_relay_home_edit_defaults';
export const HOME_TOGGLE_CHANNELS_ACTION_ID = 'agent_relay_home_toggle_channels';

export interface HomeRun {
  view: RunView;
  /** Where it was started: a channel (or DM) id, and its thread in the Slack client. */
  channel: string;
  threadUrl?: string;
  /** The requester, for runs of others. */
  requesterId?: string;
}

export interface HomeModel {
  mine: HomeRun[];
  /**
   * What the viewer's runs started this calendar month (UTC) cost, of those that reported a
   * cost; absent when none did.
   */
  month?: { name: string; spentUsd: number; runs: number };
  channels: HomeRun[];
  showChannels: boolean;
  personal: PersonalDefaults;
}

/** Slack allows 100 blocks in a view; each run takes at most two. */
const MAX_MINE = 20;
const MAX_CHANNELS = 15;

function runBlocks(run: HomeRun, withCancel: boolean): KnownBlock[] {
  const { view } = run;
  const title = truncatePlain(view.title, 150);
  const where = run.channel.startsWith('D') ? 'a direct message' : `<#${run.channel}>`;
  const facts = [
    `${view.state.emoji} ${view.state.label}`,
    ...(view.runTime ? [view.runTime] : []),
    `in ${where}`,
    ...(run.requesterId ? [`by <@${run.requesterId}>`] : []),
  ];
  const section: KnownBlock = {
    type: 'section',
    text: {
      type: 'mrkdwn',
      // link() escapes the label (and falls back to the escaped label for an unsafe URL).
      text: `*${link(run.threadUrl, title)}*\n${facts.join(' · ')}`,
    },
    ...(withCancel && view.state.live
      ? {
          accessory: {
            type: 'button',
            action_id: HOME_CANCEL_ACTION_ID,
            text: { type: 'plain_text', text: 'Cancel' },
            style: 'danger',
            value: view.runId,
          },
        }
      : {}),
  };
  const links = [
    ...(view.sessionLink ? [link(view.sessionLink, 'Session')] : []),
    ...view.links
      .filter((l) => l.kind === 'pull_request' && l.url)
      .map((l) => link(l.url, l.label)),
  ];
  return links.length === 0
    ? [section]
    : [section, { type: 'context', elements: [{ type: 'mrkdwn', text: links.join(' · ') }] }];
}

/** Live runs first (newest first within each group): what needs attention leads. */
export function liveFirst(runs: HomeRun[]): HomeRun[] {
  return [...runs.filter((r) => r.view.state.live), ...runs.filter((r) => !r.view.state.live)];
}

export function buildHomeView(model: HomeModel): { type: 'home'; blocks: KnownBlock[] } {
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: 'Your runs' } },
  ];
  if (model.month !== undefined) {
    const { name, spentUsd, runs } = model.month;
    blocks.push({
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: escapeMrkdwn(
            `${name} (UTC): ${costInWords(spentUsd)} over ${runs} run${runs === 1 ? '' : 's'}`,
          ),
        },
      ],
    });
  }
  const mine = liveFirst(model.mine).slice(0, MAX_MINE);
  if (mine.length === 0)
    blocks.push({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: 'No runs yet. Mention me, use the slash command, or pick *Send to agent* on any message.',
      },
    });
  for (const run of mine) blocks.push(...runBlocks(run, true));

  blocks.push(
    { type: 'divider' },
    { type: 'header', text: { type: 'plain_text', text: 'Your defaults' } },
  );
  blocks.push({
    type: 'section',
    text: {
      type: 'mrkdwn',
      text:
        PERSONAL_KEYS.map(
          (k) =>
            `*${k}*: ${model.personal[k] ? `\`${escapeMrkdwn(model.personal[k])}\`` : '_channel or service default_'}`,
        ).join('\n') + '\n_Used when a request does not say; they beat channel defaults._',
    },
    accessory: {
      type: 'button',
      action_id: HOME_EDIT_DEFAULTS_ACTION_ID,
      text: { type: 'plain_text', text: 'Edit' },
    },
  });

  const channels = liveFirst(model.channels).slice(0, MAX_CHANNELS);
  blocks.push({ type: 'divider' });
  blocks.push({
    type: 'section',
    text: {
      type: 'mrkdwn',
      text: `*In your channels*: ${model.channels.length} recent run${model.channels.length === 1 ? '' : 's'} by others`,
    },
    accessory: {
      type: 'button',
      action_id: HOME_TOGGLE_CHANNELS_ACTION_ID,
      text: { type: 'plain_text', text: model.showChannels ? 'Hide' : 'Show' },
      value: model.showChannels ? 'hide' : 'show',
    },
  });
  if (model.showChannels) for (const run of channels) blocks.push(...runBlocks(run, false));
  return { type: 'home', blocks };
}
