/** What the lists and the run page say about a run: links from the service, and its run time. */
import type { RunItem, RunRecord } from '../../core/ports/index.js';
import { parseIsoDuration } from '../../core/message/duration.js';
import { runLinks } from '../../core/message/run-links.js';
import { stateView } from '../../core/message/state-view.js';
import { html } from '../html.js';
import type { Html } from '../html.js';
import { formatDuration } from '../../core/message/duration.js';

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

/** The service's run time when it said one; else created -> last change for an ended run. */
export function runTime(run: RunRecord, detail: RunItem | undefined, now: number): string {
  const fromService = detail?.run_time ? parseIsoDuration(detail.run_time) : undefined;
  if (fromService !== undefined) return formatDuration(fromService);
  const view = stateView(run.state);
  return (
    formatDuration((view.ended ? run.updatedAt : now) - run.createdAt) +
    (view.ended ? '' : ' so far')
  );
}
