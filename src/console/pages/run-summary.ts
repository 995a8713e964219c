/** What the lists and the run page say about a run: links from the service, and its run time. */
import type { RunItem, RunRecord } from '../../core/ports/index.js';
import { runLinks } from '../../core/message/run-links.js';
import { viewOf } from '../../core/message/run-view.js';
import { html } from '../html.js';
import type { Html } from '../html.js';

export function linksOf(detail: RunItem | undefined): Html {
  if (!detail) return html``;
  const links = runLinks(detail.session_link ?? undefined, detail.artifacts ?? []).filter(
    (l) => l.url !== undefined,
  );
  return html`<span class="links"
    >${links.map(
      (l) => html`<a href="${l.url}" rel="noopener noreferrer" target="_blank">${l.label}</a>`,
    )}</span
  >`;
}

/**
 * The run time every screen shows (run-view.ts: the service's run_time when it reports one,
 * plus earlier executions; else from the run's start to its last change once it has
 * settled). Without the service's detail there is nothing to tell: '–'.
 */
export function runTime(run: RunRecord, detail: RunItem | undefined, now: number): string {
  if (!detail) return '–';
  return viewOf(run, detail, now).runTime ?? '–';
}
