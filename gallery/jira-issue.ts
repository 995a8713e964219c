/**
 * How a run reads on a Jira issue: the comments the relay's own Jira renderer makes of a
 * run's messages (ADF), drawn as Jira shows comments: the status comment as it stands at the
 * end, and the outcome comment that mentions the requester. ADF is drawn node by node; text
 * is always escaped, as Jira shows it.
 */
import type { RunItem } from '../src/agent/schemas.js';
import type { PersonView } from '../src/core/message/message-model.js';
import { runOutcomeMessage, runStatusMessage } from '../src/core/message/render-model.js';
import { toRunView } from '../src/core/message/run-view.js';
import { renderJiraMessage, type AdfDoc } from '../src/jira/index.js';
import { GALLERY_NOW } from './samples.js';
import { planMarkdown, planReview, planned } from './plan-review.js';

export interface JiraIssuePage {
  name: string;
  caption: string;
  comments: AdfDoc[];
  html: string;
}

const alice: PersonView = { platform: 'jira', id: '557058:alice', name: 'Alice Admin' };
const ISSUE = 'https://acme.atlassian.net/browse/PROJ-42';

function item(state: string, extra: Partial<RunItem> = {}): RunItem {
  return {
    run_id: 'c0ffee00-0000-4000-8000-000000000042',
    title: 'PROJ-42: Retry the nightly export when the bucket is busy',
    prompt: 'PROJ-42: Retry the nightly export when the bucket is busy',
    state,
    created_at: '2026-03-02T10:00:00Z',
    updated_at: '2026-03-02T10:04:12Z',
    started_at: '2026-03-02T10:00:00Z',
    session_link: 'https://agents.example.com/sessions/s_9b2c',
    ...extra,
  };
}

const view = (state: string, extra: Partial<RunItem> = {}, agentMessage?: string) => ({
  ...toRunView({ run: item(state, extra), record: { requester: alice }, now: GALLERY_NOW }),
  ...(agentMessage === undefined ? {} : { agentMessage }),
});

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

interface Node {
  type: string;
  text?: string;
  attrs?: Record<string, unknown>;
  marks?: { type: string; attrs?: { href?: string } }[];
  content?: Node[];
}

const TAGS: Record<string, string> = {
  paragraph: 'p',
  bulletList: 'ul',
  orderedList: 'ol',
  listItem: 'li',
  blockquote: 'blockquote',
};

function nodeHtml(node: Node): string {
  const inner = () => (node.content ?? []).map(nodeHtml).join('');
  switch (node.type) {
    case 'text': {
      let out = escapeHtml(node.text ?? '');
      for (const mark of node.marks ?? []) {
        if (mark.type === 'strong') out = `<strong>${out}</strong>`;
        else if (mark.type === 'em') out = `<em>${out}</em>`;
        else if (mark.type === 'strike') out = `<s>${out}</s>`;
        else if (mark.type === 'code') out = `<code>${out}</code>`;
        else if (mark.type === 'link')
          out = `<a href="${escapeHtml(mark.attrs?.href ?? '')}">${out}</a>`;
      }
      return out;
    }
    case 'hardBreak':
      return '<br>';
    case 'mention':
      return `<span class="mention">${escapeHtml(String(node.attrs?.text ?? ''))}</span>`;
    case 'rule':
      return '<hr>';
    case 'heading':
      return `<h4>${inner()}</h4>`;
    case 'codeBlock':
      return `<pre>${inner()}</pre>`;
    default: {
      const tag = TAGS[node.type] ?? 'div';
      return `<${tag}>${inner()}</${tag}>`;
    }
  }
}

const CSS = `
body { margin: 0; background: #fff; font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Roboto, Helvetica, Arial, sans-serif; color: #172b4d; }
#issue { width: 720px; padding: 16px 20px; box-sizing: border-box; }
.head { color: #5e6c84; font-size: 13px; margin-bottom: 12px; }
.head b { color: #172b4d; }
.comment { display: flex; gap: 10px; padding: 10px 0; border-top: 1px solid #ebecf0; }
.avatar { width: 32px; height: 32px; border-radius: 50%; flex: none; display: flex; align-items: center; justify-content: center; font-weight: 600; color: #fff; background: #0052cc; }
.who { font-weight: 600; font-size: 14px; }
.who span { color: #5e6c84; font-weight: 400; margin-left: 6px; }
.body p, .body ul, .body ol, .body blockquote, .body pre { margin: 4px 0 8px; }
.body code { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f4f5f7; border-radius: 3px; padding: .1em .3em; }
.body pre { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f4f5f7; padding: 8px; }
.body blockquote { border-left: 2px solid #dfe1e6; padding-left: 10px; color: #5e6c84; }
.mention { background: #dfe1e6; border-radius: 20px; padding: 0 .4em; color: #172b4d; }
a { color: #0052cc; text-decoration: none; }
`;

function pageOf(name: string, caption: string, comments: AdfDoc[]): JiraIssuePage {
  const html = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<title>${escapeHtml(caption)}</title>`,
    `<style>${CSS}</style>`,
    '</head>',
    '<body>',
    '<div id="issue">',
    '<div class="head"><b>PROJ-42</b> · Retry the nightly export when the bucket is busy · Activity: comments</div>',
    ...comments.map(
      (c, i) =>
        `<div class="comment"><div class="avatar">ar</div><div><div class="who">agent-relay<span>${i === 0 ? 'edited' : ''}</span></div><div class="body">${nodeHtml(c as unknown as Node)}</div></div></div>`,
    ),
    '</div>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
  return { name, caption, comments, html };
}

export function jiraIssuePages(): JiraIssuePage[] {
  const o = { botHandle: 'agent-relay' };
  const pr = {
    artifacts: [
      {
        artifact_type: 'PULL_REQUEST' as const,
        created_at: '2026-03-02T10:04:00Z',
        data: { url: 'https://github.com/acme/export/pull/88', branch: 'fix/export-retry' },
      },
    ],
  };
  const done = view(
    'SUCCEEDED',
    { run_time: 'PT4M12S', ...pr },
    [
      'The export now retries a busy bucket **three times** with backoff.',
      '',
      '- `src/export/upload.ts`: retry on 503',
      '- a test for the retry',
    ].join('\n'),
  );
  const waiting = view(
    'BLOCKED',
    { status_message: { message: 'Waiting for an answer' } },
    'Should a failed night **page** someone, or only log it?',
  );
  const steps = [
    'Add a test where the bucket answers 503 twice, then accepts the upload.',
    'Retry the upload in `src/export/upload.ts` three times with backoff.',
    'Log each retry with the export id.',
  ];
  const changes = 'Give up after 10 minutes in all, so the morning reports are not late.';
  const planUrl = 'https://agents.example.com/sessions/s_9b2c#plan';
  const title = item('BLOCKED').title;
  const waitingPlan = { status_message: { message: 'The plan is ready for review' } };
  const planDone = view('SUCCEEDED', { run_time: 'PT6M05S', ...pr });
  const review = planReview({
    first: planned(
      view('BLOCKED', { run_time: 'PT1M50S', ...waitingPlan }),
      1,
      planMarkdown(title, steps),
      planUrl,
    ),
    revised: planned(
      view('BLOCKED', { run_time: 'PT2M35S', ...waitingPlan }),
      2,
      planMarkdown(title, steps, changes),
      planUrl,
    ),
    done: planDone,
    person: alice,
    changes,
  });
  return [
    pageOf(
      'jira-issue',
      'A labelled issue: the status comment at the end, and the outcome for Alice',
      [
        renderJiraMessage(runStatusMessage(done), o),
        renderJiraMessage(runOutcomeMessage(done, { requestUrl: ISSUE }), o),
      ],
    ),
    pageOf('jira-issue-blocked', 'A run that needs an answer: the question, for Alice', [
      renderJiraMessage(runStatusMessage(waiting), o),
      renderJiraMessage(runOutcomeMessage(waiting), o),
    ]),
    pageOf(
      'jira-issue-plan',
      'Plan first: the plan, changes asked for, the revised plan, approval, the outcome',
      [
        renderJiraMessage(runStatusMessage(planDone), o),
        renderJiraMessage(review.first, o),
        renderJiraMessage(review.changesAsked, o),
        renderJiraMessage(review.revised, o),
        renderJiraMessage(review.approved, o),
        renderJiraMessage(review.outcome, o),
      ],
    ),
  ];
}

/** The Markdown index of the Jira pictures (docs/gallery/jira/README.md). */
export function jiraIssueIndex(pages: JiraIssuePage[]): string {
  return [
    '# What Jira shows',
    '',
    "A run's messages as comments on a Jira issue, made by agent-relay's own Jira renderer",
    '(ADF). Generated by `npm run gallery`; do not edit by hand.',
    '',
    ...pages.flatMap((p) => [`## ${p.caption}`, '', `![${p.caption}](${p.name}.png)`, '']),
  ].join('\n');
}
