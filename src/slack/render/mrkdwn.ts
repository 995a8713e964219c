/**
 * Safe pieces of Slack mrkdwn. User and service text is plain text: `escapeMrkdwn` turns the
 * three control characters into entities so `<!channel>`, `<@U…>` and `<url|label>` typed by
 * anyone arrive as harmless text. Only this module writes Slack's angle-bracket syntax, and
 * only for ids and URLs it has validated.
 */
import { clip } from '../../core/text.js';

export const ELLIPSIS = '…';

/** `&`, `<`, `>` to entities (Slack's own escaping rules for mrkdwn and fallback text). */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Cut plain text to `max` characters, ending with '…' when cut (core's one clipper). */
export const truncatePlain = clip;

/**
 * Cut mrkdwn to `max` characters without breaking an entity (`&amp;`) or a `<…>` token in
 * half, ending with '…' when cut.
 */
export function truncateMrkdwn(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = truncatePlain(text, max).slice(0, -1);
  const open = cut.lastIndexOf('<');
  if (open > cut.lastIndexOf('>')) cut = cut.slice(0, open);
  const amp = cut.lastIndexOf('&');
  if (amp >= 0 && amp > cut.lastIndexOf(';') && cut.length - amp <= 6) cut = cut.slice(0, amp);
  return cut + ELLIPSIS;
}

/** One line: newlines and runs of whitespace become single spaces. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

const SLACK_USER_ID = /^[UW][A-Z0-9]{2,}$/;
const SLACK_CHANNEL_ID = /^[CGD][A-Z0-9]{2,}$/;

export function isSlackUserId(id: string): boolean {
  return SLACK_USER_ID.test(id);
}

/** `<@U…>` for a valid user id; otherwise the escaped text (never Slack syntax). */
export function mentionUser(id: string, fallbackName?: string): string {
  if (isSlackUserId(id)) return `<@${id}>`;
  return escapeMrkdwn(fallbackName ?? id);
}

/** `<#C…>` for a valid channel id; otherwise `undefined`. */
export function mentionChannel(id: string): string | undefined {
  return SLACK_CHANNEL_ID.test(id) ? `<#${id}>` : undefined;
}

/** An http(s) URL in a form safe inside `<…|…>` and as a button `url`, or `undefined`. */
export function safeUrl(url: string | undefined, max = 3000): string | undefined {
  if (url === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  const href = parsed.href.replace(/\|/g, '%7C').replace(/</g, '%3C').replace(/>/g, '%3E');
  return href.length <= max ? href : undefined;
}

/** `<url|label>` when the URL is safe; otherwise the escaped label alone. */
export function link(url: string | undefined, label: string): string {
  const safe = safeUrl(url);
  const text = escapeMrkdwn(oneLine(label) || (safe ?? ''));
  if (safe === undefined) return text;
  return `<${safe.replace(/&/g, '&amp;')}|${text}>`;
}

/** Inline code of plain text (backticks inside would end the span, so they are replaced). */
export function code(text: string): string {
  return '`' + escapeMrkdwn(oneLine(text).replace(/`/g, "'")) + '`';
}

/** A code block of plain text. */
export function codeBlock(text: string): string {
  return '```' + escapeMrkdwn(text.replace(/```/g, "'''")) + '```';
}

/** A block quote of plain text: every line prefixed with `>`. */
export function quote(text: string): string {
  return escapeMrkdwn(text)
    .split(/\r\n|\r|\n/)
    .map((line) => `>${line}`)
    .join('\n');
}
