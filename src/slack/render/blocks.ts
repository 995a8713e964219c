/**
 * Small Block Kit builders that enforce Slack's limits (truncating with '…'), so every
 * renderer gets them right by construction.
 * https://docs.slack.dev/reference/block-kit/blocks
 */
import type { types } from '@slack/bolt';
import { oneLine, truncateMrkdwn, truncatePlain } from './mrkdwn.js';

export type KnownBlock = types.KnownBlock;
export type Button = types.Button;

export const LIMITS = {
  headerText: 150,
  sectionText: 3000,
  contextElementText: 3000,
  contextElements: 10,
  blocks: 50,
  buttonText: 75,
  buttonUrl: 3000,
  buttonValue: 2000,
  actionElements: 25,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  /** chat.postMessage accepts more, but a notification needs no more than this. */
  fallbackText: 3000,
} as const;

export { CANCEL_ACTION_ID, OPEN_SESSION_ACTION_ID, STOP_ACTION_ID } from '../api/action-ids.js';

export function header(text: string): KnownBlock {
  return {
    type: 'header',
    text: {
      type: 'plain_text',
      text: truncatePlain(oneLine(text) || ' ', LIMITS.headerText),
      emoji: true,
    },
  };
}

/** A section of mrkdwn (already escaped by the caller). */
export function section(mrkdwn: string): KnownBlock {
  return {
    type: 'section',
    text: { type: 'mrkdwn', text: truncateMrkdwn(mrkdwn, LIMITS.sectionText) },
  };
}

/** A context line of mrkdwn elements (already escaped by the caller). */
export function context(elements: string[]): KnownBlock {
  return {
    type: 'context',
    elements: elements
      .filter((e) => e.length > 0)
      .slice(0, LIMITS.contextElements)
      .map((text) => ({ type: 'mrkdwn', text: truncateMrkdwn(text, LIMITS.contextElementText) })),
  };
}

export function divider(): KnownBlock {
  return { type: 'divider' };
}

export function actions(blockId: string, elements: Button[]): KnownBlock {
  return { type: 'actions', block_id: blockId, elements: elements.slice(0, LIMITS.actionElements) };
}

/** A button's words: one line, cut to what Slack shows. */
const buttonLabel = (text: string) =>
  ({
    type: 'plain_text',
    text: truncatePlain(oneLine(text), LIMITS.buttonText),
    emoji: true,
  }) as const;

/** A link button; `url` must already be a safe http(s) URL of at most 3000 characters. */
export function urlButton(text: string, url: string, actionId: string): Button {
  return {
    type: 'button',
    action_id: actionId,
    text: buttonLabel(text),
    url,
  };
}

export interface Confirm {
  title: string;
  /** mrkdwn, already escaped. */
  text: string;
  confirm: string;
  deny: string;
}

export function valueButton(
  text: string,
  value: string,
  actionId: string,
  options: { style?: 'danger' | 'primary'; confirm?: Confirm } = {},
): Button {
  const button: Button = {
    type: 'button',
    action_id: actionId,
    text: buttonLabel(text),
    value: value.slice(0, LIMITS.buttonValue),
  };
  if (options.style !== undefined) button.style = options.style;
  const c = options.confirm;
  if (c !== undefined) {
    button.confirm = {
      title: { type: 'plain_text', text: truncatePlain(c.title, LIMITS.confirmTitle) },
      text: { type: 'mrkdwn', text: truncateMrkdwn(c.text, LIMITS.confirmText) },
      confirm: { type: 'plain_text', text: truncatePlain(c.confirm, LIMITS.confirmButton) },
      deny: { type: 'plain_text', text: truncatePlain(c.deny, LIMITS.confirmButton) },
      style: 'danger',
    };
  }
  return button;
}

/** At most 50 blocks: the rest is replaced by a context line saying so. */
export function capBlocks(blocks: KnownBlock[]): KnownBlock[] {
  if (blocks.length <= LIMITS.blocks) return blocks;
  const kept = blocks.slice(0, LIMITS.blocks - 1);
  kept.push(context([`…and ${blocks.length - kept.length} more (too long for one message)`]));
  return kept;
}
