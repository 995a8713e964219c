/**
 * Slack's message text -> the plain words a person typed. Slack sends mentions, channels and
 * links as `<…>` tokens and escapes `&`, `<`, `>` as entities; the agent and the command
 * parser want neither.
 */
import { escapeRegExp } from '../../core/text.js';

const TOKEN = /<([^<>]*)>/g;

function token(inner: string): string {
  const bar = inner.indexOf('|');
  const target = bar < 0 ? inner : inner.slice(0, bar);
  const label = bar < 0 ? undefined : inner.slice(bar + 1);
  if (target.startsWith('@')) return label === undefined ? target : `@${label.replace(/^@/, '')}`;
  if (target.startsWith('#')) return label === undefined ? target : `#${label.replace(/^#/, '')}`;
  if (target.startsWith('!')) {
    const [name = ''] = target.slice(1).split('^');
    if (label !== undefined) return label.startsWith('@') ? label : `@${label}`;
    return `@${name}`;
  }
  if (target.startsWith('mailto:')) return label ?? target.slice('mailto:'.length);
  if (label === undefined || label === '' || label === target) return target;
  return `${label} (${target})`;
}

export function decodeEntities(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** `<@U1>` -> `@U1`, `<https://x|label>` -> `label (https://x)`, entities decoded. */
export function toPlainText(slackText: string): string {
  return decodeEntities(slackText.replace(TOKEN, (_m, inner: string) => token(inner)));
}

function mentionPattern(botUserId: string, withSpace = false): RegExp {
  const mention = `<@${escapeRegExp(botUserId)}(?:\\|[^>]*)?>`;
  return new RegExp(withSpace ? `[ \\t]*${mention}[ \\t]*` : mention, 'g');
}

/** Whether Slack text mentions this user id. */
export function mentionsUser(slackText: string, userId: string): boolean {
  return mentionPattern(userId).test(slackText);
}

/**
 * The words addressed to the bot: every mention of the bot removed (a mention in the middle
 * of a sentence leaves the sentence), then made plain. Without a known bot id, a leading
 * mention is removed.
 */
export function wordsForBot(slackText: string, botUserId: string | undefined): string {
  const stripped =
    botUserId === undefined
      ? slackText.replace(/^\s*<@[A-Za-z0-9]+(?:\|[^>]*)?>/, '')
      : slackText.replace(mentionPattern(botUserId, true), ' ');
  return toPlainText(stripped)
    .replace(/^[\s,:;]+/, '')
    .trim();
}
