/**
 * How a message looks to a person, in plain text: Slack Block Kit flattened to lines, GitHub
 * Markdown with its markup toned down. For the demo's transcript, not for production.
 */
import type { FakeComment } from '../fakes/github-rest-api.js';
import type { FakeMessage } from '../fakes/slack-web-api.js';

interface Block {
  type?: string;
  text?: { text?: string } | string;
  fields?: { text?: string }[];
  elements?: {
    type?: string;
    text?: { text?: string } | string;
    action_id?: string;
    value?: string;
  }[];
}

/** Whether agent-relay (or another app) wrote it, not a person. */
export const byBot = (message: FakeMessage): boolean => message.bot_id !== undefined;

/** Names Slack would show for user ids (`<@U1>` renders as `@Alice`). */
export type Names = ReadonlyMap<string, string>;

/** Slack mrkdwn to plain words: `<url|label>` -> label, `*bold*` -> bold, `<@U1>` -> @name. */
export function plainSlack(text: string, names: Names = new Map()): string {
  return text
    .replace(/<(https?:[^|>]+)\|([^>]+)>/g, '$2')
    .replace(/<(https?:[^>]+)>/g, '$1')
    .replace(/<@([A-Z0-9]+)>/g, (_, id: string) => `@${names.get(id) ?? id}`)
    .replace(/(^|\s)\*([^*\n]+)\*/g, '$1$2')
    .replace(/(^|\s)_([^_\n]+)_/g, '$1$2')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

const textOf = (t: { text?: string } | string | undefined): string =>
  typeof t === 'string' ? t : (t?.text ?? '');

export function slackLines(message: FakeMessage, names: Names = new Map()): string[] {
  const plain = (text: string) => plainSlack(text, names);
  const blocks = (message.blocks ?? []) as Block[];
  if (blocks.length === 0) return plain(message.text).split('\n');
  const lines: string[] = [];
  for (const block of blocks) {
    if (block.type === 'header' || block.type === 'section') {
      lines.push(...plain(textOf(block.text)).split('\n'));
      for (const field of block.fields ?? []) lines.push(plain(textOf(field.text)));
    } else if (block.type === 'context') {
      lines.push(plain((block.elements ?? []).map((e) => textOf(e.text)).join(' · ')));
    } else if (block.type === 'actions') {
      lines.push((block.elements ?? []).map((e) => `[${plain(textOf(e.text))}]`).join(' '));
    }
  }
  return lines.filter((l) => l.trim() !== '');
}

/** The button a person would click, with the value Slack sends back. */
export function slackButton(
  message: FakeMessage,
  actionId: string,
): { actionId: string; value: string } | undefined {
  for (const block of (message.blocks ?? []) as Block[]) {
    for (const e of block.elements ?? []) {
      if (e.action_id === actionId && e.value !== undefined) return { actionId, value: e.value };
    }
  }
  return undefined;
}

/** GitHub Markdown as rendered: links as their text, tables as `key: value`, no markup. */
export function githubLines(comment: FakeComment): string[] {
  return comment.body
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<\/?(sub|sup|details|summary|b|i)>/g, '')
    .replace(/\[([^\]]+)\]\([^)]+\)/g, '$1')
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .split('\n')
    .filter((l) => !/^\|[\s|:-]+\|$/.test(l.trim()))
    .map((l) => {
      const cells = /^\|(.*)\|$/
        .exec(l.trim())?.[1]
        ?.split('|')
        .map((c) => c.trim());
      if (cells && cells.length === 2) return `${cells[0]}: ${cells[1]}`;
      return l.replace(/^#+\s*/, '').replace(/^>\s?/, '│ ');
    })
    .filter((l) => l.trim() !== '');
}
