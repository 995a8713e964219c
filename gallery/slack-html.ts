/**
 * Block Kit -> HTML close to how Slack shows it: header, section (with an accessory button),
 * context, actions, divider, and mrkdwn (bold, italic, strike, code, code blocks, quotes,
 * links, user and channel mentions). The renderer already escaped every piece of user text
 * (`&`, `<`, `>`), so the only raw `<` left are Slack's own link and mention forms.
 */
import type { SlackMessage } from '../src/slack/index.js';

type Block = SlackMessage['blocks'][number];
type Text = { type: string; text: string };
type Button = {
  type: 'button';
  text: Text;
  url?: string;
  style?: 'primary' | 'danger';
};

/** Names the gallery shows for the ids in its samples (Slack shows display names). */
const NAMES: Record<string, string> = { U0ALICE01: 'alice', U0BOB0001: 'bob' };
const CHANNELS: Record<string, string> = { C0WEB01: 'web-team' };

function attr(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** Slack's `<…>` forms: links, user and channel mentions, special mentions. */
function angle(inner: string): string {
  const [target = '', label] = inner.split('|', 2);
  if (target.startsWith('@')) {
    const id = target.slice(1);
    return `<span class="mention">@${NAMES[id] ?? label ?? id}</span>`;
  }
  if (target.startsWith('#')) {
    const id = target.slice(1);
    return `<span class="mention">#${CHANNELS[id] ?? label ?? id}</span>`;
  }
  if (target.startsWith('!')) return `<span class="mention">@${target.slice(1)}</span>`;
  return `<a href="${attr(target)}">${label ?? target}</a>`;
}

function inline(text: string): string {
  const codes: string[] = [];
  let out = text.replace(/`([^`\n]+)`/g, (_m, code: string) => {
    codes.push(`<code>${code}</code>`);
    return `\uE000${codes.length - 1}\uE000`;
  });
  out = out.replace(/<([^<>]+)>/g, (_m, inner: string) => angle(inner));
  out = out
    .replace(/(^|[\s(])\*([^*\n]+)\*(?=$|[\s.,:;!?)])/g, '$1<b>$2</b>')
    .replace(/(^|[\s(])_([^_\n]+)_(?=$|[\s.,:;!?)])/g, '$1<i>$2</i>')
    .replace(/(^|[\s(])~([^~\n]+)~(?=$|[\s.,:;!?)])/g, '$1<s>$2</s>');
  return out.replace(/\uE000(\d+)\uE000/g, (_m, i: string) => codes[Number(i)] ?? '');
}

/** mrkdwn -> HTML: code blocks first, then quotes line by line, then inline marks. */
export function mrkdwnToHtml(text: string): string {
  const parts = text.split(/```/);
  return parts
    .map((part, i) => {
      if (i % 2 === 1) return `<pre>${part.replace(/^\n/, '')}</pre>`;
      const lines = part.split('\n');
      const html: string[] = [];
      let quote: string[] = [];
      const flush = () => {
        if (quote.length > 0) html.push(`<blockquote>${quote.join('<br>')}</blockquote>`);
        quote = [];
      };
      for (const line of lines) {
        // Slack reads a line starting with `>` (raw or as an entity) as a quote.
        const quoted = /^(?:>|&gt;) ?/.exec(line);
        if (quoted) {
          quote.push(inline(line.slice(quoted[0].length)));
          continue;
        }
        flush();
        html.push(inline(line));
      }
      flush();
      return html
        .join('<br>')
        .replace(/<br>(<blockquote>)/g, '$1')
        .replace(/(<\/blockquote>)<br>/g, '$1');
    })
    .join('');
}

function button(b: Button): string {
  const cls = b.style === undefined ? 'button' : `button ${b.style}`;
  return `<span class="${cls}">${b.text.text}</span>`;
}

function blockToHtml(block: Block): string {
  const b = block as unknown as {
    type: string;
    text?: Text;
    elements?: (Text | Button)[];
    accessory?: Button;
  };
  switch (b.type) {
    case 'header':
      return `<div class="header">${b.text?.text ?? ''}</div>`;
    case 'section': {
      const text = `<div class="text">${mrkdwnToHtml(b.text?.text ?? '')}</div>`;
      const accessory =
        b.accessory === undefined ? '' : `<div class="accessory">${button(b.accessory)}</div>`;
      return `<div class="section">${text}${accessory}</div>`;
    }
    case 'context':
      return `<div class="context">${(b.elements ?? [])
        .map((e) => `<span>${mrkdwnToHtml((e as Text).text)}</span>`)
        .join('<span class="dot"> · </span>')}</div>`;
    case 'actions':
      return `<div class="actions">${(b.elements ?? []).map((e) => button(e as Button)).join('')}</div>`;
    case 'divider':
      return '<hr>';
    default:
      return `<div class="unknown">${attr(b.type)}</div>`;
  }
}

export const SLACK_CSS = `
body { margin: 0; background: #fff; font: 15px/1.46668 -apple-system, "Segoe UI", Lato, "Helvetica Neue", Arial, sans-serif; color: #1d1c1d; }
#frame { width: 640px; padding: 12px 20px; box-sizing: border-box; display: flex; gap: 8px; }
.avatar { width: 36px; height: 36px; border-radius: 6px; background: #4a154b; color: #fff; font-weight: 700; display: flex; align-items: center; justify-content: center; flex: none; }
.body { flex: 1; min-width: 0; }
.who { font-weight: 900; }
.app { font-size: 10px; font-weight: 700; background: rgba(29,28,29,.13); color: rgba(29,28,29,.7); border-radius: 2px; padding: 1px 3px; margin-left: 4px; vertical-align: 1px; }
.time { color: #616061; font-size: 12px; margin-left: 6px; }
.only { color: #616061; font-size: 13px; margin-bottom: 2px; }
.header { font-size: 18px; font-weight: 900; margin: 4px 0; }
.section { display: flex; gap: 12px; margin: 4px 0; }
.section .text { flex: 1; }
.context { color: #616061; font-size: 13px; margin: 4px 0; }
.actions { margin: 8px 0 4px; display: flex; gap: 8px; }
.button { display: inline-block; border: 1px solid rgba(29,28,29,.3); border-radius: 4px; padding: 3px 12px; font-weight: 700; font-size: 13px; }
.button.danger { background: #e01e5a; border-color: #e01e5a; color: #fff; }
.button.primary { background: #007a5a; border-color: #007a5a; color: #fff; }
code { font: 12px Monaco, Menlo, Consolas, monospace; color: #e01e5a; background: rgba(29,28,29,.04); border: 1px solid rgba(29,28,29,.13); border-radius: 3px; padding: 1px 3px; }
pre { font: 12px/1.5 Monaco, Menlo, Consolas, monospace; background: rgba(29,28,29,.04); border: 1px solid rgba(29,28,29,.13); border-radius: 4px; padding: 8px; margin: 4px 0; white-space: pre-wrap; }
blockquote { margin: 4px 0; padding-left: 12px; border-left: 4px solid #ddd; }
a { color: #1264a3; text-decoration: none; }
.mention { color: #1264a3; background: rgba(29,155,209,.1); border-radius: 3px; padding: 0 2px; }
hr { border: none; border-top: 1px solid #ddd; }
`;

/** One message as Slack shows it in a channel (or, when private, only to the asker). */
export function slackMessageHtml(message: SlackMessage, opts: { private?: boolean } = {}): string {
  const only = opts.private ? '<div class="only">👁 Only visible to you</div>' : '';
  const blocks = message.blocks.map(blockToHtml).join('\n');
  return [
    '<div id="frame">',
    '<div class="avatar">AR</div>',
    '<div class="body">',
    only,
    '<div><span class="who">agent-relay</span><span class="app">APP</span><span class="time">10:06 AM</span></div>',
    blocks,
    '</div>',
    '</div>',
  ].join('\n');
}
