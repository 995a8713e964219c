/**
 * What every rendered message must satisfy, whatever the text in it: Slack's Block Kit size
 * limits and GitHub's comment limit; and neutralised markup: no mass mention, no mention of
 * anyone the model did not name, no link the service did not give, no HTML tag, and the same
 * Markdown structure as the same message with harmless text.
 */
import type { SlackMessage } from '../../src/slack/render/render-blocks.js';

/** Block Kit limits (https://docs.slack.dev/reference/block-kit/blocks). */
export const SLACK = {
  blocks: 50,
  header: 150,
  section: 3000,
  contextElements: 10,
  contextText: 3000,
  actionElements: 25,
  buttonText: 75,
  buttonValue: 2000,
  buttonUrl: 3000,
  accessibilityLabel: 75,
  /** chat.postMessage's `text` is truncated by Slack beyond 40,000 characters. */
  text: 40_000,
} as const;

export const GITHUB_COMMENT_LIMIT = 65_536;

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v !== null && typeof v === 'object' ? (v as Json) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Every size problem of a Slack message (empty when it fits). */
export function slackSizeProblems(m: SlackMessage): string[] {
  const problems: string[] = [];
  const over = (what: string, text: string, max: number) => {
    if (text.length > max) problems.push(`${what}: ${text.length} > ${max}`);
  };
  over('text', m.text, SLACK.text);
  if (m.blocks.length > SLACK.blocks) problems.push(`blocks: ${m.blocks.length}`);
  for (const raw of m.blocks) {
    const b = obj(raw);
    if (b.type === 'header') over('header', str(obj(b.text).text), SLACK.header);
    if (b.type === 'section') over('section', str(obj(b.text).text), SLACK.section);
    if (b.type === 'context') {
      const elements = Array.isArray(b.elements) ? b.elements : [];
      if (elements.length > SLACK.contextElements) problems.push('context elements');
      for (const e of elements) over('context', str(obj(e).text), SLACK.contextText);
    }
    if (b.type === 'actions') {
      const elements = Array.isArray(b.elements) ? b.elements : [];
      if (elements.length > SLACK.actionElements) problems.push('action elements');
      for (const e of elements.map(obj)) {
        over('button text', str(obj(e.text).text), SLACK.buttonText);
        over('button value', str(e.value), SLACK.buttonValue);
        over('button url', str(e.url), SLACK.buttonUrl);
        over('accessibility_label', str(e.accessibility_label), SLACK.accessibilityLabel);
        const c = obj(e.confirm);
        over('confirm title', str(obj(c.title).text), 100);
        over('confirm text', str(obj(c.text).text), 300);
      }
    }
  }
  return problems;
}

/** The mrkdwn strings of a Slack message (where Slack reads `<…>` syntax). */
export function slackMrkdwn(m: SlackMessage): string[] {
  const out = [m.text];
  for (const raw of m.blocks) {
    const b = obj(raw);
    if (b.type === 'section') out.push(str(obj(b.text).text));
    if (b.type === 'context' && Array.isArray(b.elements)) {
      for (const e of b.elements) if (obj(e).type === 'mrkdwn') out.push(str(obj(e).text));
    }
    if (b.type === 'actions' && Array.isArray(b.elements)) {
      for (const e of b.elements) out.push(str(obj(obj(obj(e).confirm).text).text));
    }
  }
  return out;
}

/**
 * Slack `<…>` tokens that are not allowed: any `<!…>` (channel/here/everyone/subteam/date),
 * a user or channel mention of an id the model does not name, a link to a URL the model does
 * not carry.
 */
export function slackTokenProblems(
  mrkdwn: string[],
  allowed: { users: Set<string>; channels: Set<string>; urls: Set<string> },
): string[] {
  const problems: string[] = [];
  for (const text of mrkdwn) {
    for (const [token] of text.matchAll(/<[^<>]*>/g)) {
      const user = /^<@([A-Z0-9]+)>$/.exec(token)?.[1];
      const channel = /^<#([A-Z0-9]+)>$/.exec(token)?.[1];
      const linked = /^<(https?:\/\/[^|<>]+)(?:\|[^<>]*)?>$/.exec(token)?.[1];
      if (user !== undefined && allowed.users.has(user)) continue;
      if (channel !== undefined && allowed.channels.has(channel)) continue;
      if (linked !== undefined && allowed.urls.has(linked.replace(/&amp;/g, '&'))) continue;
      problems.push(token.slice(0, 80));
    }
  }
  return problems;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const FENCE_LINE = '\u0001fence';
const CODE_LINE = '\u0001code';

/** Lines of a Markdown body outside fenced code blocks, inline code masked; plus fence state. */
export function markdownProse(body: string): { lines: string[]; openFenceAtEnd: boolean } {
  const lines: string[] = [];
  let open: string | undefined;
  for (const line of body.split('\n')) {
    const m = FENCE.exec(line);
    if (open === undefined && m) {
      const marker = m[1] ?? '';
      if (!(marker.startsWith('`') && (m[2] ?? '').includes('`'))) {
        open = marker;
        lines.push(FENCE_LINE);
        continue;
      }
    } else if (open !== undefined) {
      if (
        m &&
        (m[1] ?? '')[0] === open[0] &&
        (m[1] ?? '').length >= open.length &&
        (m[2] ?? '').trim() === ''
      ) {
        open = undefined;
        lines.push(FENCE_LINE);
      } else lines.push(CODE_LINE);
      continue;
    }
    lines.push(line);
  }
  return { lines, openFenceAtEnd: open !== undefined };
}

const PUNCTUATION = /[!-/:-@[-`{-~]/;

/**
 * Hide what Markdown shows literally (CommonMark): backslash escapes, and inline code spans
 * (a backtick run up to the next run of the same length; an escaped backtick opens none).
 */
export function maskLiteral(line: string): string {
  let out = '';
  let i = 0;
  while (i < line.length) {
    const ch = line[i] ?? '';
    if (ch === '\\' && PUNCTUATION.test(line[i + 1] ?? '')) {
      out += '\u0000\u0000';
      i += 2;
      continue;
    }
    if (ch === '`') {
      const run = /^`+/.exec(line.slice(i))?.[0] ?? '`';
      let j = i + run.length;
      let close = -1;
      while (j < line.length) {
        const next = /`+/g;
        next.lastIndex = j;
        const m = next.exec(line);
        if (!m) break;
        if (m[0].length === run.length) {
          close = m.index;
          break;
        }
        j = m.index + m[0].length;
      }
      if (close < 0) {
        out += run;
        i += run.length;
        continue;
      }
      const end = close + run.length;
      out += '\u0000'.repeat(end - i);
      i = end;
      continue;
    }
    out += ch;
    i++;
  }
  return out;
}

/** The shape of a Markdown body: one word per line (heading level, table cells, quote, …). */
export function markdownShape(body: string): string[] {
  return markdownProse(body).lines.map((line) => {
    if (line === FENCE_LINE) return 'fence';
    if (line === CODE_LINE) return 'code';
    if (line.trim() === '') return 'blank';
    const heading = /^ {0,3}(#{1,6})(\s|$)/.exec(line)?.[1];
    if (heading) return `h${heading.length}`;
    // GFM splits table cells on every unescaped pipe, inside code spans too.
    if (/^\s*\|/.test(line)) return `row${unescapedPipes(line)}`;
    if (/^ {0,3}>/.test(line)) return 'quote';
    if (/^ {0,3}([-+*]|\d{1,9}[.)])(\s|$)/.test(line)) return 'list';
    if (/^ {0,3}([-*_=])(\s*\1){2,}\s*$/.test(line)) return 'rule';
    return 'text';
  });
}

function unescapedPipes(line: string): number {
  let n = 0;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '\\') i++;
    else if (line[i] === '|') n++;
  }
  return n;
}

/** The notifier's own hidden mark, which ends a posted comment (see PostOptions). */
const NOTIFICATION_MARK = /\n\n<!-- agent-relay:notification \d+\.\d+\/\d+ -->$/;

/**
 * Problems in Markdown prose: HTML tags (but the renderer's own `<sub>`, `<details>` and
 * `<summary>`, bare, and the notifier's final mark, exactly as it writes it), mentions of
 * people not named.
 */
const OWN_TAGS = new Set(['<sub>', '</sub>', '<details>', '</details>', '<summary>', '</summary>']);

export function githubProseProblems(body: string, allowedLogins: Set<string>): string[] {
  const problems: string[] = [];
  const { lines, openFenceAtEnd } = markdownProse(body.replace(NOTIFICATION_MARK, ''));
  if (openFenceAtEnd) problems.push('a code fence is left open');
  for (const raw of lines) {
    // Link destinations are not text (an `@` in a URL mentions nobody).
    const line = maskLiteral(raw).replace(/\]\([^()\s]*\)/g, (d) => '\u0000'.repeat(d.length));
    for (const [tag] of line.matchAll(/<\/?[A-Za-z!?][^>]*>?/g)) {
      if (!OWN_TAGS.has(tag)) problems.push(`html ${tag.slice(0, 60)}`);
    }
    for (const m of line.matchAll(/(?:^|[^A-Za-z0-9_`])@([A-Za-z0-9][A-Za-z0-9-]*(?:\[bot\])?)/g)) {
      if (allowedLogins.has(m[1] ?? '')) continue;
      const around = raw.slice(Math.max(0, m.index - 30), m.index + 30);
      problems.push(`mention @${m[1] ?? ''} in ${JSON.stringify(around)}`);
    }
    if (/\]\(\s*(javascript|data|vbscript):/i.test(line)) problems.push('script link');
  }
  return problems;
}
