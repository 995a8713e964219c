/**
 * How a run reads in a Linear agent session: the activities the relay's own Linear renderer
 * (and its step actions) makes of a run's messages, drawn as a session's activity list
 * (thought, actions, an elicitation, the person's reply, the response; and a failed run's
 * error). Bodies are Markdown, rendered with `marked`; an ephemeral thought shows only until
 * the next activity replaces it, as in Linear.
 */
import { Marked } from 'marked';
import type { RunItem } from '../src/agent/schemas.js';
import type { MessageModel, PersonView } from '../src/core/message/message-model.js';
import type { ProgressView } from '../src/core/message/progress.js';
import {
  followupSentMessage,
  runOutcomeMessage,
  runStatusMessage,
} from '../src/core/message/render-model.js';
import { startingView, toRunView } from '../src/core/message/run-view.js';
import type { Activity } from '../src/linear/api/activity-content.js';
import { createStepActions } from '../src/linear/notify/step-actions.js';
import { renderActivity } from '../src/linear/render/render-activity.js';
import { GALLERY_NOW } from './samples.js';
import { planMarkdown, planReview, planned } from './plan-review.js';

// Raw HTML in a body is shown as text (as Linear does); code spans keep their `<` as typed.
const markdown = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: { html: ({ text }) => escapeHtml(text) },
});

export interface LinearSessionEntry {
  /** The person's prompt (what Linear shows of their message), or an activity of the relay. */
  prompt?: string;
  activity?: Activity;
}

export interface LinearSessionPage {
  name: string;
  caption: string;
  entries: LinearSessionEntry[];
  html: string;
}

const ada: PersonView = { platform: 'linear', id: 'user-ada', name: 'Ada' };
const SESSION = 'https://agents.example.com/sessions/s_4e1a';

function item(state: string, extra: Partial<RunItem> = {}): RunItem {
  return {
    run_id: 'c0ffee00-0000-4000-8000-000000000142',
    title: 'ENG-142: Login redirect loops after SSO',
    prompt: 'ENG-142: Login redirect loops after SSO',
    state,
    created_at: '2026-03-02T10:00:00Z',
    updated_at: '2026-03-02T10:02:03Z',
    started_at: '2026-03-02T10:00:00Z',
    session_link: SESSION,
    ...extra,
  };
}

const view = (state: string, extra: Partial<RunItem> = {}, progress?: ProgressView) => {
  const run = toRunView({ run: item(state, extra), record: { requester: ada }, now: GALLERY_NOW });
  return progress ? { ...run, progress } : run;
};

const step = (id: string, action: string, parameter: string, state: 'done' | 'failed') => ({
  id,
  title: `${action}: ${parameter}`,
  action,
  parameter,
  state,
});

/** The activities the notifier writes for these messages, in order (step actions included). */
function activitiesOf(messages: MessageModel[]): Activity[] {
  const steps = createStepActions();
  const out: Activity[] = [];
  for (const message of messages) {
    const activity = renderActivity(message);
    if (activity) out.push(activity);
    if (message.type === 'run_status') {
      out.push(...steps.due('session', message.run, GALLERY_NOW).map((s) => s.activity));
    }
  }
  return out;
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

const CSS = `
body { margin: 0; background: #fff; font: 14px/1.5 Inter, -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; color: #282a30; }
#session { width: 680px; padding: 16px 20px; box-sizing: border-box; }
.head { display: flex; align-items: center; gap: 8px; color: #6b6f76; font-size: 13px; margin-bottom: 12px; }
.head b { color: #282a30; }
.entry { display: flex; gap: 10px; padding: 6px 0; }
.icon { width: 22px; height: 22px; border-radius: 50%; flex: none; display: flex; align-items: center; justify-content: center; font-size: 12px; font-weight: 600; color: #fff; background: #5e6ad2; }
.person .icon { background: #26b5ce; }
.kind { font-size: 12px; color: #8a8f98; text-transform: uppercase; letter-spacing: .03em; }
.body > :first-child { margin-top: 0; }
.body > :last-child { margin-bottom: 0; }
.body p, .body ul { margin: 0 0 8px; }
.ephemeral { opacity: .5; font-style: italic; }
.action { font-size: 13px; color: #3c4149; }
.action code, .body code { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f1f2f4; border-radius: 4px; padding: .1em .35em; }
.result { color: #4cb782; margin-left: 6px; }
.result.failed { color: #eb5757; }
.elicitation .bubble { border-left: 3px solid #f2c94c; padding-left: 10px; }
.error .bubble { border-left: 3px solid #eb5757; padding-left: 10px; }
.response .bubble { border-left: 3px solid #4cb782; padding-left: 10px; }
a { color: #5e6ad2; text-decoration: none; }
`;

function entryHtml(entry: LinearSessionEntry): string {
  if (entry.prompt !== undefined) {
    return [
      '<div class="entry person">',
      '<div class="icon">A</div>',
      `<div><div class="kind">Ada</div><div class="body">${escapeHtml(entry.prompt)}</div></div>`,
      '</div>',
    ].join('');
  }
  const activity = entry.activity!;
  const c = activity.content;
  if (c.type === 'action') {
    const result = c.result
      ? `<span class="result${c.result === 'Failed' ? ' failed' : ''}">${escapeHtml(c.result)}</span>`
      : '';
    return [
      '<div class="entry action">',
      '<div class="icon">⚙</div>',
      `<div>${escapeHtml(c.action)} <code>${escapeHtml(c.parameter)}</code>${result}</div>`,
      '</div>',
    ].join('');
  }
  // The bodies come from the relay's renderer (Markdown, what is not ours escaped).
  const body = markdown.parse(c.body) as string;
  return [
    `<div class="entry ${c.type}${activity.ephemeral ? ' ephemeral' : ''}">`,
    '<div class="icon">⟡</div>',
    `<div class="bubble"><div class="kind">${c.type}${activity.ephemeral ? ' (ephemeral)' : ''}</div>`,
    `<div class="body">${body}</div></div>`,
    '</div>',
  ].join('');
}

function pageOf(name: string, caption: string, entries: LinearSessionEntry[]): LinearSessionPage {
  const html = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<title>${escapeHtml(caption)}</title>`,
    `<style>${CSS}</style>`,
    '</head>',
    '<body>',
    '<div id="session">',
    '<div class="head"><b>agent</b> · agent session on ENG-142</div>',
    ...entries.map(entryHtml),
    '</div>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
  return { name, caption, entries, html };
}

const searched = step('a0', 'Search codebase', 'sso redirect callback', 'done');
const edited = step('a1', 'Edit files', 'src/auth/callback.ts', 'done');
const tested = (state: 'done' | 'failed') => step('a2', 'Run command', 'npm test', state);

export function linearSessionPages(): LinearSessionPage[] {
  const starting = startingView({
    title: 'ENG-142: Login redirect loops after SSO',
    prompt: 'ENG-142: Login redirect loops after SSO',
    requester: ada,
    applied: [],
  });
  const asked = activitiesOf([
    runStatusMessage(starting),
    runStatusMessage(view('INPROGRESS')),
    runStatusMessage(view('INPROGRESS', {}, { kind: 'steps', steps: [searched] })),
    runStatusMessage(view('INPROGRESS', {}, { kind: 'steps', steps: [searched, edited] })),
    runOutcomeMessage(
      view('BLOCKED', {
        status_message: { message: 'Should the fix target main or release/2.x?' },
      }),
    ),
  ]);
  const answered = activitiesOf([
    followupSentMessage(view('QUEUED'), 'main, please'),
    runOutcomeMessage({
      ...view('SUCCEEDED', {
        run_time: 'PT4M12S',
        // What the run used, as the service reports it (the response says it once).
        request_usage: {
          inference_cost_usd: 0.97,
          compute_cost_usd: 0.21,
          platform_cost_usd: 0.06,
          total_tokens: 312_000,
        },
        artifacts: [
          {
            artifact_type: 'PULL_REQUEST',
            created_at: '2026-03-02T10:04:00Z',
            data: { url: 'https://github.com/acme/web/pull/61', branch: 'fix/sso-redirect' },
          },
        ],
      }),
      // The agent's own final words, read from the run's conversation.
      agentMessage:
        'The callback compared the `state` cookie before the session was saved, so every SSO sign-in started over. It now saves the session first and checks the cookie once; `callback.test.ts` covers the loop.',
    }),
  ]);
  const failed = activitiesOf([
    runStatusMessage(starting),
    runStatusMessage(view('INPROGRESS')),
    runStatusMessage(
      view('INPROGRESS', {}, { kind: 'steps', steps: [searched, edited, tested('failed')] }),
    ),
    runOutcomeMessage(
      view('FAILED', {
        run_time: 'PT1M12S',
        status_message: { message: 'npm test failed in src/auth/callback.test.ts' },
      }),
    ),
  ]);
  const changes = 'Keep the old callback URL working for a week; the mobile app still uses it.';
  const planUrl = 'https://agents.example.com/sessions/s_8f2c#plan';
  const steps = [
    'Add a test that signs in through SSO and expects the dashboard.',
    'Save the session before the callback checks the `state` cookie.',
    'Check the cookie once, in `src/auth/callback.ts`.',
  ];
  const waitingPlan = { status_message: { message: 'The plan is ready for review' } };
  const title = item('BLOCKED').title;
  const review = planReview({
    first: planned(
      view('BLOCKED', { run_time: 'PT1M40S', ...waitingPlan }),
      1,
      planMarkdown(title, steps),
      planUrl,
    ),
    revised: planned(
      view('BLOCKED', { run_time: 'PT2M30S', ...waitingPlan }),
      2,
      planMarkdown(title, steps, changes),
      planUrl,
    ),
    done: view('SUCCEEDED', { run_time: 'PT5M50S' }),
    person: ada,
    changes,
  });
  // Linear replaces an ephemeral activity with the next one: only a last one stays in view.
  const entries = (activities: Activity[]) =>
    activities
      .filter((a, i) => !a.ephemeral || i === activities.length - 1)
      .map((activity) => ({ activity }));
  return [
    pageOf('linear-session', 'A delegated issue: thought, actions, a question, the answer', [
      ...entries(asked),
      { prompt: 'main, please' },
      ...entries(answered),
    ]),
    pageOf('linear-session-error', 'A run that failed: its error says what to do', [
      ...entries(failed),
    ]),
    pageOf(
      'linear-session-plan',
      'Plan first: the plan, changes asked for, the revised plan, approval, the outcome',
      [
        ...entries(activitiesOf([runStatusMessage(starting), review.first])),
        { prompt: changes },
        ...entries(activitiesOf([review.changesAsked, review.revised])),
        { prompt: 'approve' },
        ...entries(activitiesOf([review.approved, review.outcome])),
      ],
    ),
  ];
}

/** The Markdown index of the Linear pictures (docs/gallery/linear/README.md). */
export function linearSessionIndex(pages: LinearSessionPage[]): string {
  return [
    '# What Linear shows',
    '',
    "A run's messages as the activities of a Linear agent session, made by agent-relay's own",
    'Linear renderer. Generated by `npm run gallery`; do not edit by hand.',
    '',
    ...pages.flatMap((p) => [`## ${p.caption}`, '', `![${p.caption}](${p.name}.png)`, '']),
  ].join('\n');
}
