/**
 * How a run reads in a Teams channel thread: the activities the relay's own Teams renderer
 * makes of a run's messages, drawn as Teams shows them: the person's mention, the status card
 * (an Adaptive Card: its text blocks, facts and buttons; the view the requester gets, with Stop
 * and Cancel, while the run works), and the reply that mentions the requester. The Markdown of
 * text blocks and messages goes through `marked` with raw HTML escaped, so nothing a person or
 * the agent wrote becomes markup; `<at>` mentions are drawn as Teams draws them.
 */
import { Marked } from 'marked';
import type { RunItem } from '../src/agent/schemas.js';
import type { PersonView } from '../src/core/message/message-model.js';
import type { ProgressView } from '../src/core/message/progress.js';
import { runOutcomeMessage } from '../src/core/message/render-model.js';
import { toRunView } from '../src/core/message/run-view.js';
import { renderStatusCard, renderTeamsMessage, type OutgoingActivity } from '../src/teams/index.js';
import { GALLERY_NOW } from './samples.js';
import { planMarkdown, planReview, planned } from './plan-review.js';

export interface TeamsThreadPage {
  name: string;
  caption: string;
  /** The person's message, then what the relay posted (the card as its viewer sees it). */
  activities: { from: string; card?: unknown; text?: string }[];
  html: string;
}

const alice: PersonView = { platform: 'teams', id: '29:1alice', name: 'Alice Park' };
const O = { botHandle: 'agent-relay' };

function item(state: string, extra: Partial<RunItem> = {}): RunItem {
  return {
    run_id: 'c0ffee00-0000-4000-8000-000000000231',
    title: 'Add retries to the nightly export upload',
    prompt: 'add retries to the nightly export upload',
    state,
    created_at: '2026-03-02T10:00:00Z',
    updated_at: '2026-03-02T10:04:12Z',
    started_at: '2026-03-02T10:00:00Z',
    session_link: 'https://agents.example.com/sessions/s_7d1e',
    ...extra,
  };
}

const view = (state: string, extra: Partial<RunItem> = {}, progress?: ProgressView) => {
  const run = toRunView({
    run: item(state, extra),
    record: { requester: alice },
    now: GALLERY_NOW,
  });
  return progress ? { ...run, progress } : run;
};

const PR = {
  artifacts: [
    {
      artifact_type: 'PULL_REQUEST' as const,
      created_at: '2026-03-02T10:04:00Z',
      data: { url: 'https://github.com/acme/export/pull/91', branch: 'fix/upload-retry' },
    },
  ],
};
const USAGE = {
  request_usage: {
    inference_cost_usd: 0.71,
    compute_cost_usd: 0.18,
    platform_cost_usd: 0.05,
    total_tokens: 241_000,
  },
};

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

const markdown = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: { html: ({ text }) => escapeHtml(text) },
});

/** Teams' Markdown as HTML; `<at>name</at>` as a mention. */
function md(text: string): string {
  const html = markdown.parse(text) as string;
  return html.replace(/&lt;at&gt;(.*?)&lt;\/at&gt;/g, '<span class="mention">$1</span>');
}

interface Element {
  type: string;
  text?: string;
  size?: string;
  isSubtle?: boolean;
  color?: string;
  facts?: { title: string; value: string }[];
  actions?: { type: string; title?: string; style?: string }[];
}

function elementHtml(e: Element): string {
  if (e.type === 'TextBlock') {
    const cls = [
      e.size === 'Medium' ? 'big' : '',
      e.isSubtle ? 'subtle' : '',
      e.color === 'Attention' ? 'attention' : '',
    ]
      .filter(Boolean)
      .join(' ');
    return `<div class="tb ${cls}">${md(e.text ?? '')}</div>`;
  }
  if (e.type === 'FactSet')
    return `<table class="facts">${(e.facts ?? [])
      .map((f) => `<tr><th>${escapeHtml(f.title)}</th><td>${escapeHtml(f.value)}</td></tr>`)
      .join('')}</table>`;
  if (e.type === 'ActionSet')
    return `<div class="actions">${(e.actions ?? [])
      .map(
        (a) =>
          `<span class="button${a.style === 'destructive' ? ' destructive' : ''}">${escapeHtml(a.title ?? '')}${a.type === 'Action.OpenUrl' ? ' ↗' : ''}</span>`,
      )
      .join('')}</div>`;
  return '';
}

function cardHtml(card: unknown): string {
  const body = (card as { body: Element[] }).body;
  return `<div class="card">${body.map(elementHtml).join('')}</div>`;
}

const CSS = `
body { margin: 0; background: #f5f5f5; font: 14px/1.45 "Segoe UI", -apple-system, "Noto Sans", Roboto, Helvetica, Arial, sans-serif; color: #242424; }
#thread { width: 720px; padding: 16px 20px; box-sizing: border-box; background: #f5f5f5; }
.head { color: #616161; font-size: 13px; margin-bottom: 10px; }
.head b { color: #242424; }
.post { display: flex; gap: 10px; padding: 8px 0; }
.avatar { width: 32px; height: 32px; border-radius: 50%; flex: none; display: flex; align-items: center; justify-content: center; font-weight: 600; color: #fff; background: #5b5fc7; font-size: 12px; }
.avatar.person { background: #c4314b; }
.bubble { background: #fff; border-radius: 6px; padding: 8px 12px; box-shadow: 0 1px 2px rgba(0,0,0,.12); flex: 1; min-width: 0; }
.who { font-weight: 600; font-size: 13px; margin-bottom: 4px; }
.who span { color: #616161; font-weight: 400; margin-left: 6px; }
.bubble p, .bubble ul { margin: 4px 0 6px; }
.bubble code { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f0f0f0; border-radius: 3px; padding: .1em .3em; }
.card { border: 1px solid #e0e0e0; border-radius: 6px; padding: 10px 12px; }
.tb p { margin: 2px 0 6px; }
.tb.big { font-size: 16px; }
.tb.subtle { color: #616161; font-size: 13px; }
.tb.attention { color: #c4314b; }
.facts { border-collapse: collapse; margin: 4px 0 8px; font-size: 13px; }
.facts th { text-align: left; font-weight: 600; padding: 1px 12px 1px 0; vertical-align: top; }
.actions { display: flex; gap: 8px; flex-wrap: wrap; margin-top: 8px; }
.button { border: 1px solid #d1d1d1; border-radius: 4px; padding: 4px 12px; font-weight: 600; font-size: 13px; color: #242424; background: #fff; }
.button.destructive { color: #c4314b; }
.mention { color: #5b5fc7; font-weight: 600; }
a { color: #5b5fc7; text-decoration: none; }
`;

function pageOf(
  name: string,
  caption: string,
  activities: TeamsThreadPage['activities'],
): TeamsThreadPage {
  const posts = activities.map((a) => {
    const person = a.from !== 'agent-relay';
    const initials = person ? 'AP' : 'ar';
    const body = a.card !== undefined ? cardHtml(a.card) : md(a.text ?? '');
    return `<div class="post"><div class="avatar${person ? ' person' : ''}">${initials}</div><div class="bubble"><div class="who">${escapeHtml(a.from)}${a.card !== undefined ? '<span>edited</span>' : ''}</div>${body}</div></div>`;
  });
  const html = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<title>${escapeHtml(caption)}</title>`,
    `<style>${CSS}</style>`,
    '</head>',
    '<body>',
    '<div id="thread">',
    '<div class="head"><b>Engineering</b> › General · a thread</div>',
    ...posts,
    '</div>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
  return { name, caption, activities, html };
}

const mention = (words: string) => ({ from: 'Alice Park', text: `<at>agent-relay</at> ${words}` });
const card = (run: ReturnType<typeof view>, live: boolean) => ({
  from: 'agent-relay',
  card: renderStatusCard(run, O, { live }),
});
const reply = (a: OutgoingActivity) => ({ from: 'agent-relay', text: a.text ?? '' });

export function teamsThreadPages(): TeamsThreadPage[] {
  const working = view(
    'INPROGRESS',
    { ...USAGE },
    {
      kind: 'steps',
      steps: [
        { id: '1', title: 'Read src/export/upload.ts', state: 'done' },
        { id: '2', title: 'Edit src/export/upload.ts', state: 'done' },
        { id: '3', title: 'Run npm test', state: 'running' },
      ],
    },
  );
  const done = {
    ...view('SUCCEEDED', { run_time: 'PT4M12S', ...PR, ...USAGE }),
    agentMessage: [
      'The upload now retries a busy bucket **three times** with backoff (1 s, 4 s, 16 s).',
      '',
      '- `src/export/upload.ts`: retry on 503 and 429',
      '- `upload.test.ts` covers a bucket busy twice',
    ].join('\n'),
  };
  const waiting = {
    ...view('BLOCKED', {
      run_time: 'PT1M40S',
      status_message: { message: 'Waiting for an answer' },
    }),
    agentMessage: 'Should a failed night **page** someone, or only log it?',
  };
  const words = 'add retries to the nightly export upload';
  const steps = [
    'Add a test where the bucket answers 503 twice, then accepts the upload.',
    'Retry the upload in `src/export/upload.ts` three times with backoff.',
    'Log each retry with the export id.',
  ];
  const changes = 'Give up after 10 minutes in all, so the morning reports are not late.';
  const planUrl = 'https://agents.example.com/sessions/s_7d1e#plan';
  const waitingPlan = { status_message: { message: 'The plan is ready for review' } };
  const title = item('BLOCKED').title;
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
    done: view('SUCCEEDED', { run_time: 'PT6M05S', ...PR, ...USAGE }),
    person: alice,
    changes,
  });
  return [
    pageOf('teams-working', 'While it works: the card as Alice sees it, with Stop and Cancel', [
      mention(words),
      card(working, true),
    ]),
    pageOf('teams-thread', 'At the end: the card, and the reply that mentions Alice', [
      mention(words),
      card(done, false),
      reply(renderTeamsMessage(runOutcomeMessage(done), O)),
    ]),
    pageOf('teams-blocked', 'A run that needs an answer: the question, for Alice', [
      mention(words),
      card(waiting, false),
      reply(renderTeamsMessage(runOutcomeMessage(waiting), O)),
    ]),
    pageOf(
      'teams-plan',
      'Plan first: the plan, changes asked for, the revised plan, approval, the outcome',
      [
        mention(`mode=plan ${words}`),
        card(view('SUCCEEDED', { run_time: 'PT6M05S', ...PR, ...USAGE }), false),
        reply(renderTeamsMessage(review.first, O)),
        mention(`changes ${changes}`),
        reply(renderTeamsMessage(review.changesAsked, O)),
        reply(renderTeamsMessage(review.revised, O)),
        mention('approve'),
        reply(renderTeamsMessage(review.approved, O)),
        reply(renderTeamsMessage(review.outcome, O)),
      ],
    ),
  ];
}

/** The Markdown index of the Teams pictures (docs/gallery/teams/README.md). */
export function teamsThreadIndex(pages: TeamsThreadPage[]): string {
  return [
    '# What Teams shows',
    '',
    "A run's messages in a Teams channel thread, made by agent-relay's own Teams renderer (an",
    'Adaptive Card edited in place, and Markdown replies). Generated by `npm run gallery`; do',
    'not edit by hand.',
    '',
    ...pages.flatMap((p) => [`## ${p.caption}`, '', `![${p.caption}](${p.name}.png)`, '']),
  ].join('\n');
}
