/** What the lists and the run page say about a run: links from the service, and its run time. */
import type { RunItem, RunRecord } from '../../core/ports/index.js';
import { runLinks } from '../../core/message/run-links.js';
import { viewOf } from '../../core/message/run-view.js';
import { formatCost, formatTokens } from '../../core/message/usage-text.js';
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

/**
 * What the run cost as last reported (the service's detail, else the record), approximate:
 * "≈ $1.24 · 312k tokens"; '–' when nothing was reported.
 */
export function runCost(run: RunRecord, detail: RunItem | undefined, now: number): string {
  const { usage } = viewOf(
    run,
    detail ?? { run_id: run.runId, title: run.title, state: run.state },
    now,
  );
  const parts = [
    ...(usage?.costUsd === undefined ? [] : [formatCost(usage.costUsd)]),
    ...(usage?.tokens === undefined ? [] : [formatTokens(usage.tokens)]),
  ];
  return parts.length === 0 ? '–' : parts.join(' · ');
}

/** The cost to sort by: the reported cost, or -1 for a run that reported none. */
export function costKey(run: RunRecord, detail: RunItem | undefined, now: number): number {
  const { usage } = viewOf(
    run,
    detail ?? { run_id: run.runId, title: run.title, state: run.state },
    now,
  );
  return usage?.costUsd ?? -1;
}

/** The id to show under a requester's name: none when there is no name, or it is the id. */
export function requesterIdBeside(requester: { id: string; name?: string }): string | undefined {
  return requester.name !== undefined && requester.name !== requester.id ? requester.id : undefined;
}
