/**
 * A run's check run as GitHub's Checks tab shows it, approximately: the check's name with its
 * status, its buttons (the App's actions and Re-run), the output title and the summary
 * (Markdown, as GitHub renders it), and the Details link. Drawn from what the relay writes
 * (render-check-run.ts), not a copy of GitHub's page.
 */
import type { CheckRunFields } from '../src/github/render/render-check-run.js';
import { githubMarkdownToHtml } from './github-html.js';

export const CHECK_RUN_CSS = `
.check { flex: 1; min-width: 0; border: 1px solid #d1d9e0; border-radius: 6px; }
.check-head { display: flex; align-items: center; gap: 8px; background: #f6f8fa; border-bottom: 1px solid #d1d9e0; border-radius: 6px 6px 0 0; padding: 10px 16px; }
.check-head .name { font-weight: 600; flex: 1; }
.status { font-size: 12px; border-radius: 2em; padding: 1px 8px; color: #fff; }
.status.in_progress { background: #bf8700; }
.status.success { background: #1a7f37; }
.status.failure { background: #d1242f; }
.status.cancelled { background: #59636e; }
.status.action_required { background: #8250df; }
.button { font-size: 12px; border: 1px solid #d1d9e0; border-radius: 6px; padding: 3px 12px; background: #fff; color: #1f2328; }
.check-body { padding: 16px; }
.check-body h2 { font-size: 20px; margin: 0 0 12px; font-weight: 600; }
.details { color: #59636e; font-size: 12px; margin-top: 8px; }
`;

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

const WORDS: Record<string, string> = {
  in_progress: 'In progress',
  success: 'Success',
  failure: 'Failure',
  cancelled: 'Cancelled',
  action_required: 'Action required',
};

export function checkRunHtml(check: CheckRunFields): string {
  const status = check.conclusion ?? check.status;
  const buttons = [
    ...check.actions.map(
      (a) =>
        `<span class="button" title="${escapeHtml(a.description)}">${escapeHtml(a.label)}</span>`,
    ),
    '<span class="button">Re-run</span>',
  ];
  return [
    '<div id="frame">',
    '<div class="avatar">AR</div>',
    '<div class="check">',
    '<div class="check-head">',
    `<span class="name">${escapeHtml(check.name)}</span>`,
    `<span class="status ${escapeHtml(status)}">${escapeHtml(WORDS[status] ?? status)}</span>`,
    ...buttons,
    '</div>',
    '<div class="check-body">',
    `<h2>${escapeHtml(check.output.title)}</h2>`,
    `<div class="markdown-body">${githubMarkdownToHtml(check.output.summary)}</div>`,
    check.details_url === undefined
      ? ''
      : `<div class="details">Details: <a href="${escapeHtml(check.details_url)}">${escapeHtml(check.details_url)}</a></div>`,
    '</div>',
    '</div>',
    '</div>',
  ].join('\n');
}
