/** One run: what it is, where it lives, its links, its state history, and its thread's queue items. */
import type {
  InboxItem,
  OutboxItem,
  RunItem,
  RunRecord,
  StateChange,
} from '../../core/ports/index.js';
import { html } from '../html.js';
import type { Html } from '../html.js';
import { placeOf } from '../places.js';
import { layout, rowsTable, stateBadge, time, timeToSecond } from './layout.js';
import { formatDuration } from '../../core/message/duration.js';
import { stateView } from '../../core/message/state-view.js';
import type { PageContext } from './layout.js';
import { notificationsTable, triggersTable } from './queue-tables.js';
import { linksOf, requesterIdBeside, runCost, runTime } from './run-summary.js';

export interface RunView {
  run: RunRecord;
  detail?: RunItem;
  /** Why the service's detail is missing (it did not answer), when it is. */
  detailProblem?: string;
  history: StateChange[];
  otherRuns: RunRecord[];
  triggers: InboxItem[];
  notifications: OutboxItem[];
  githubWebUrl: string;
}

export function runBody(view: RunView, ctx: PageContext): Html {
  const { run, detail } = view;
  const place = placeOf(run.threadKey, view.githubWebUrl, run);
  // What the service chose has no value here: say so in words, not `env= (service)`.
  const applied = run.applied
    .map((a) =>
      a.value === undefined ? `${a.key}: service default` : `${a.key}=${a.value} (${a.source})`,
    )
    .join(', ');
  return html`<p class="small"><a href="/console">← Runs</a></p>
    <h1>${run.title || run.runId} ${stateBadge(run.state)}</h1>
    <div class="card">
      <dl class="facts">
        <dt>Run</dt>
        <dd>${run.runId}</dd>
        <dt>Requester</dt>
        <dd>
          ${run.requester.name ?? run.requester.id}
          ${requesterIdBeside(run.requester) ? html`<span class="muted">${run.requester.id}</span>` : ''}
        </dd>
        <dt>Place</dt>
        <dd class="place">
          ${place.url ? html`<a href="${place.url}" rel="noopener noreferrer" target="_blank">${place.label}</a>` : place.label}
          <span class="muted small">${run.threadKey}</span>
        </dd>
        <dt>Links</dt>
        <dd>
          ${detail ? linksOf(detail) : html`<span class="muted">${view.detailProblem ?? '–'}</span>`}
        </dd>
        <dt>Settings</dt>
        <dd>${applied || '–'}</dd>
        ${
          run.factory
            ? html`<dt>Factory</dt>
                <dd>${run.factory.alias ?? run.factory.name ?? run.factory.uid}</dd>`
            : ''
        }
        <dt>Created</dt>
        <dd>${time(run.createdAt)}</dd>
        <dt>Updated</dt>
        <dd>${time(run.updatedAt)}</dd>
        <dt>Run time</dt>
        <dd>${runTime(run, detail, ctx.now)}</dd>
        <dt>Cost</dt>
        <dd>${runCost(run, detail, ctx.now)}</dd>
        ${
          detail?.status_message?.message
            ? html`<dt>Service says</dt>
                <dd>${detail.status_message.message}</dd>`
            : ''
        }
      </dl>
    </div>
    <h2>State history</h2>
    ${rowsTable(
      html`class="rows history"`,
      ['State', 'Recorded', 'For'],
      shownHistory(view.history).map((h, i, rows) => {
        // How long the run stayed in this state: until the next one, or until now.
        const next = rows[i + 1]?.at;
        const ended = next === undefined && stateView(h.state).ended;
        const stayed = ended ? '–' : formatDuration(Math.max(0, (next ?? ctx.now) - h.at));
        return html`<tr>
          <td data-label="State">${stateBadge(h.state)}</td>
          <td data-label="Recorded">${timeToSecond(h.at)}</td>
          <td data-label="For">${next === undefined && !ended ? `${stayed} so far` : stayed}</td>
        </tr>`;
      }),
      'Recorded before history was kept.',
    )}
    ${
      view.otherRuns.length
        ? html`<h2>Other runs in this thread</h2>
            <ul>
              ${view.otherRuns.map((r) => html`<li><a href="/console/runs/${encodeURIComponent(r.runId)}">${r.title || r.runId}</a> ${stateBadge(r.state)}</li>`)}
            </ul>`
        : ''
    }
    <h2>Notifications in this thread</h2>
    ${notificationsTable(view.notifications, ctx, false)}
    <h2>Triggers of this run and its thread</h2>
    ${triggersTable(view.triggers, ctx, false)}`;
}

/**
 * The history as a person reads it: states the page names alike (QUEUED and PENDING are both
 * "Waiting for a machine") one after the other are one row, from the first of them.
 */
function shownHistory(history: StateChange[]): StateChange[] {
  return history.filter(
    (h, i) => i === 0 || stateView(h.state).label !== stateView(history[i - 1]!.state).label,
  );
}

export function runPage(view: RunView, ctx: PageContext): Html {
  return layout(view.run.title || view.run.runId, ctx, 'runs', runBody(view, ctx));
}
