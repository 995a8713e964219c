/**
 * A recorded conversation as one page: a Slack thread (the person's message, then the
 * replies) or a GitHub issue (its body, then the comments), each message drawn with the same
 * HTML as the single-message pictures, with its reactions and whether it was edited.
 */
import type { SlackMessage } from '../src/slack/index.js';
import type { Conversation, ConversationMessage } from './conversations.js';
import { GITHUB_CSS, githubCommentHtml, githubMarkdownToHtml } from './github-html.js';
import { SLACK_CSS, mrkdwnToHtml, slackMessageHtml } from './slack-html.js';

const EMOJI: Record<string, string> = {
  eyes: '👀',
  ok_hand: '👌',
  white_check_mark: '✅',
  x: '❌',
  double_vertical_bar: '⏸️',
  no_entry_sign: '🚫',
  '+1': '👍',
  '-1': '👎',
  rocket: '🚀',
  confused: '😕',
  hooray: '🎉',
  heart: '❤️',
  laugh: '😄',
};

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const reactionsHtml = (m: ConversationMessage) =>
  m.reactions.length === 0
    ? ''
    : `<div class="reactions">${m.reactions
        .map((r) => `<span class="reaction">${EMOJI[r] ?? `:${escapeHtml(r)}:`} 1</span>`)
        .join('')}</div>`;

const edited = (m: ConversationMessage) =>
  m.edits > 0 ? ' <span class="edited">(edited)</span>' : '';

function slackMessage(m: ConversationMessage): string {
  if (m.bot && m.slack && m.slack.blocks.length > 0) {
    return slackMessageHtml({ blocks: m.slack.blocks } as SlackMessage, { private: m.private })
      .replace('<div id="frame">', '<div class="msg">')
      .replace('<span class="time">10:06 AM</span>', `<span class="time"></span>${edited(m)}`)
      .replace(/<\/div>\n<\/div>$/, `${reactionsHtml(m)}</div>\n</div>`);
  }
  // A person's message (or a bot's plain text): the text as Slack shows it.
  const text = (m.slack?.text ?? '').replace(/<@(U0RELAY01)>/g, '<@$1|agent-relay>');
  return [
    '<div class="msg">',
    `<div class="avatar${m.bot ? '' : ' person'}">${m.bot ? 'AR' : escapeHtml(m.who.slice(0, 1).toUpperCase())}</div>`,
    '<div class="body">',
    m.private ? '<div class="only">👁 Only visible to you</div>' : '',
    `<div><span class="who">${escapeHtml(m.who)}</span>${m.bot ? '<span class="app">APP</span>' : ''}${edited(m)}</div>`,
    `<div class="text">${mrkdwnToHtml(escapeHtml(text).replace(/&lt;(@U0[A-Z0-9]+(?:\|[^&]*)?)&gt;/g, '<$1>'))}</div>`,
    reactionsHtml(m),
    '</div>',
    '</div>',
  ].join('\n');
}

function githubMessage(m: ConversationMessage): string {
  const body = m.github?.body ?? '';
  if (m.bot) {
    return githubCommentHtml(body)
      .replace('<div id="frame">', '<div class="msg">')
      .replace(' commented now</div>', ` commented${edited(m)}</div>`)
      .replace(/<\/div>\n<\/div>\n<\/div>$/, `</div>\n${reactionsHtml(m)}</div>\n</div>`);
  }
  return [
    '<div class="msg">',
    `<div class="avatar person">${escapeHtml(m.who.slice(0, 1).toUpperCase())}</div>`,
    '<div class="comment">',
    `<div class="head"><b>${escapeHtml(m.who)}</b> commented</div>`,
    `<div class="markdown-body">${githubMarkdownToHtml(escapeHtml(body))}</div>`,
    reactionsHtml(m),
    '</div>',
    '</div>',
  ].join('\n');
}

const EXTRA_CSS = `
#conversation { padding: 8px 0; }
.msg { display: flex; gap: 8px; padding: 8px 20px; }
.avatar.person { background: #2eb67d; }
.edited { color: #616061; font-size: 12px; margin-left: 6px; font-weight: 400; }
.reactions { display: flex; gap: 4px; margin: 6px 0 2px; }
.reaction { border: 1px solid #1d9bd1; background: rgba(29,155,209,.1); border-radius: 12px; padding: 0 8px; font-size: 13px; }
.replies { color: #616061; font-size: 13px; margin: 4px 20px; padding-top: 4px; border-top: 1px solid #ddd; }
.place { font-weight: 700; margin: 8px 20px; }
`;

const GITHUB_EXTRA_CSS = `
#conversation { width: 760px; padding: 8px 0; }
.msg { display: flex; gap: 12px; padding: 8px 16px; }
.comment .reactions { padding: 0 16px 12px; }
.place { font-size: 20px; margin: 8px 16px 12px; }
`;

/** A conversation as a self-contained page; its picture is taken of `#conversation`. */
export function conversationPage(c: Conversation): string {
  const slack = c.platform === 'slack';
  const [first, ...rest] = c.messages;
  const body = slack
    ? [
        '<div class="place"># web-team</div>',
        first ? slackMessage(first) : '',
        `<div class="replies">${rest.length} ${rest.length === 1 ? 'reply' : 'replies'}</div>`,
        ...rest.map(slackMessage),
      ]
    : [`<div class="place">${escapeHtml(c.caption)}</div>`, ...c.messages.map(githubMessage)];
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<title>${escapeHtml(c.caption)}</title>`,
    `<style>${slack ? SLACK_CSS + EXTRA_CSS : GITHUB_CSS + GITHUB_EXTRA_CSS}</style>`,
    '</head>',
    '<body>',
    `<div id="conversation" style="width:${slack ? 640 : 760}px">`,
    ...body,
    '</div>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** The index of the conversations (docs/gallery/conversations/README.md). */
export function conversationsIndex(conversations: readonly Conversation[]): string {
  const section = (platform: 'slack' | 'github', heading: string) => [
    `## ${heading}`,
    '',
    ...conversations
      .filter((c) => c.platform === platform)
      .flatMap((c) => [`### ${c.caption}`, '', `![${c.caption}](${c.name}.png)`, '']),
  ];
  return [
    '# Whole conversations',
    '',
    'Each picture is one Slack thread or one GitHub issue from the first message to the last,',
    'recorded by `npm run gallery` from the real relay (the service with its embedded emulator,',
    'the fake Slack and the fake GitHub, requests sent to its real endpoints). Each outcome is',
    'said once: the status message holds the detail, and the one reply that mentions the',
    'requester points at it. Generated: do not edit.',
    '',
    ...section('slack', 'Slack'),
    ...section('github', 'GitHub'),
  ].join('\n');
}
