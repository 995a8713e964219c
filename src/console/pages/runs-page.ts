/** The runs: filterable by state, platform, place and person, newest first. */
import type { RunFilter, RunItem, RunRecord } from '../../core/ports/index.js';
import { KNOWN_STATE_NAMES } from '../../core/message/state-view.js';
import { html } from '../html.js';
import type { Html } from '../html.js';
import { placeOf } from '../places.js';
import { layout, rowsTable, stateBadge, time } from './layout.js';
import type { PageContext } from './layout.js';
import { costKey, linksOf, requesterIdBeside, runCost, runTime } from './run-summary.js';

export interface RunsView {
  runs: RunRecord[];
  filter: Omit<RunFilter, 'limit'>;
  details: ReadonlyMap<string, RunItem>;
  githubWebUrl: string;
  /** More runs are older than this (epoch ms): the next page starts there. */
  olderThan?: number;
  /** `cost`: the runs by their reported cost, highest first (else newest first). */
  sort?: 'cost';
  /** Sorted by cost, more runs follow: the next page skips this many. */
  nextOffset?: number;
}

/** The page's runs in the order asked for: by cost (runs without one last), else as listed. */
function ordered(view: RunsView, now: number): RunRecord[] {
  if (view.sort !== 'cost') return view.runs;
  const key = (r: RunRecord) => costKey(r, view.details.get(r.runId), now);
  return [...view.runs].sort((a, b) => key(b) - key(a));
}

/** The page's filters as query parameters (those set). */
function filterQuery(view: RunsView): URLSearchParams {
  const { state, platform, place, person } = view.filter;
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries({ state, platform, place, person }))
    if (value) q.set(key, value);
  return q;
}

/** A column heading that sorts this page by it (and back). */
function sortLink(view: RunsView, label: string): Html {
  const q = filterQuery(view);
  if (view.sort !== 'cost') q.set('sort', 'cost');
  const suffix = q.toString() === '' ? '' : `?${q.toString()}`;
  return html`<a href="/console${suffix}" id="sort-cost"
    >${label}${view.sort === 'cost' ? ' ▾' : ''}</a
  >`;
}

function olderLink(view: RunsView): Html {
  if (view.olderThan === undefined && view.nextOffset === undefined) return html``;
  const q = filterQuery(view);
  if (view.nextOffset !== undefined) {
    q.set('sort', 'cost');
    q.set('offset', String(view.nextOffset));
    return html`<p><a href="/console?${q.toString()}" id="older">Cheaper runs →</a></p>`;
  }
  q.set('before', String(view.olderThan));
  return html`<p><a href="/console?${q.toString()}" id="older">Older runs →</a></p>`;
}

function filters(view: RunsView): Html {
  const f = view.filter;
  const option = (value: string, label: string, current: string | undefined) =>
    html`<option value="${value}" ${current === value ? html` selected` : ''}>${label}</option>`;
  return html`<form class="filters" method="get" action="/console">
    <label
      >State<select name="state">
        ${option('', 'any', f.state ?? '')}${KNOWN_STATE_NAMES.map((s) => option(s, s, f.state))}
      </select></label
    >
    <label
      >Platform<select name="platform">
        ${option('', 'any', f.platform ?? '')}${option('slack', 'Slack', f.platform)}${option('github', 'GitHub', f.platform)}${option('linear', 'Linear', f.platform)}
      </select></label
    >
    <label
      >Place<input
        name="place"
        value="${f.place ?? ''}"
        placeholder="github:acme/app or slack:T1:C1"
    /></label>
    <label>Person<input name="person" value="${f.person ?? ''}" placeholder="id or name" /></label>
    <button type="submit" class="primary">Filter</button>
    <a href="/console">Clear</a>
  </form>`;
}

export function runsBody(view: RunsView, ctx: PageContext): Html {
  const rows = ordered(view, ctx.now).map((run) => {
    const place = placeOf(run.threadKey, view.githubWebUrl, run);
    const detail = view.details.get(run.runId);
    return html`<tr data-run="${run.runId}">
      <td data-label="State">${stateBadge(run.state)}</td>
      <td data-label="Run">
        <a href="/console/runs/${encodeURIComponent(run.runId)}">${run.title || run.runId}</a>
        <div class="muted small">${run.runId}</div>
      </td>
      <td data-label="Requester">
        ${run.requester.name ?? run.requester.id}
        ${requesterIdBeside(run.requester) ? html`<div class="muted small">${run.requester.id}</div>` : ''}
      </td>
      <td data-label="Place">
        ${place.url ? html`<a href="${place.url}" rel="noopener noreferrer" target="_blank">${place.label}</a>` : place.label}
      </td>
      <td data-label="Links">${linksOf(detail)}</td>
      <td data-label="Created">${time(run.createdAt)}</td>
      <td data-label="Updated">${time(run.updatedAt)}</td>
      <td data-label="Run time">${runTime(run, detail, ctx.now)}</td>
      <td data-label="Cost">${runCost(run, detail, ctx.now)}</td>
    </tr>`;
  });
  return html`<h1>Runs</h1>
    ${filters(view)}
    ${rowsTable(
      html`class="rows" id="runs"`,
      [
        'State',
        'Run',
        'Requester',
        'Place',
        'Links',
        'Created',
        'Updated',
        'Run time',
        sortLink(view, 'Cost ≈'),
      ],
      rows,
      'No runs match.',
    )}
    ${olderLink(view)}`;
}

export function runsPage(view: RunsView, ctx: PageContext): Html {
  return layout('Runs', ctx, 'runs', runsBody(view, ctx));
}
