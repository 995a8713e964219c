/**
 * The queues: what needs attention first (failed triggers, parked notifications: the red
 * numbers), then depth and oldest waiting; parked notifications grouped by cause and place
 * with Retry/Discard for a whole group, and failed triggers with Retry/Discard.
 */
import type { InboxItem, OutboxItem, QueueHealth } from '../../core/ports/index.js';
import { html } from '../html.js';
import type { Html } from '../html.js';
import { groupParked, type ParkedGroup } from '../parked-groups.js';
import { actionForm, discardAsk } from './given-up-actions.js';
import { age, layout, time } from './layout.js';
import type { PageContext } from './layout.js';
import { notificationsTable, triggersTable } from './queue-tables.js';

export interface QueuesView {
  health: QueueHealth;
  parked: OutboxItem[];
  failed: InboxItem[];
  githubWebUrl: string;
  /** What the last action did, said once after it (see action-result.ts). */
  notice?: string;
}

function stat(n: number | string, label: string, alert = false): Html {
  return html`<div class="card stat${alert ? ' alert' : ''}">
    <div class="n">${n}</div>
    <div class="l">${label}</div>
  </div>`;
}

/** A group this large shows its rows only when asked (the group's line says enough). */
const FOLDED_FROM = 4;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function groupCard(group: ParkedGroup, ctx: PageContext): Html {
  const ids = group.items.map((n) => n.id);
  const n = ids.length;
  const attempts = group.items.map((i) => i.attempts);
  const [least, most] = [Math.min(...attempts), Math.max(...attempts)];
  const first = Math.min(...group.items.map((i) => i.createdAt));
  const what = plural(n, 'notification', 'notifications');
  const rows = html`<summary>${n === 1 ? 'The notification' : `The ${n} notifications`}</summary>
    ${notificationsTable(group.items, ctx, true)}`;
  const place = group.place.url
    ? html`<a href="${group.place.url}" rel="noopener noreferrer" target="_blank"
        >${group.place.label}</a
      >`
    : group.place.label;
  return html`<section class="card group" data-group="${group.key}" data-count="${n}">
    <div class="group-head"><strong>${what}</strong> for ${place}</div>
    <div class="err">${group.cause}</div>
    <div class="muted small">
      ${least === most ? `${plural(most, 'attempt', 'attempts')} each` : `${least}–${most} attempts`}
      · first queued ${time(first)}
    </div>
    ${
      ctx.role === 'operator'
        ? html`<div class="actions">
            ${actionForm(
              'retry',
              'notification',
              ids,
              n === 1 ? 'Retry' : `Retry all ${n}`,
              { cls: 'primary', dataAction: 'retry-group' },
              ctx,
            )}
            ${discardAsk('notification', ids, n === 1 ? 'Discard…' : `Discard all ${n}…`, 'discard-group', ctx)}
          </div>`
        : ''
    }
    ${n < FOLDED_FROM ? html`<details open>${rows}</details>` : html`<details>${rows}</details>`}
  </section>`;
}

export function queuesBody(view: QueuesView, ctx: PageContext): Html {
  const { inbox, outbox } = view.health;
  // What needs attention comes first, so on a phone the red numbers are at the top.
  const stats = [
    { n: inbox.failed, label: 'failed triggers', alert: inbox.failed > 0 },
    { n: outbox.parked, label: 'parked notifications', alert: outbox.parked > 0 },
    { n: inbox.waiting + inbox.processing, label: 'triggers waiting (inbox)', alert: false },
    { n: age(inbox.oldestWaitingAt, ctx.now), label: 'oldest waiting trigger', alert: false },
    { n: outbox.waiting, label: 'notifications waiting (outbox)', alert: false },
    { n: age(outbox.oldestWaitingAt, ctx.now), label: 'oldest waiting notification', alert: false },
  ].sort((a, b) => Number(b.alert) - Number(a.alert));
  const groups = groupParked(view.parked, view.githubWebUrl);
  return html`<h1>Queues</h1>
    ${view.notice ? html`<p class="card notice" role="status" id="notice">${view.notice}</p>` : ''}
    <div class="grid" id="queue-health">${stats.map((s) => stat(s.n, s.label, s.alert))}</div>
    <h2>Parked notifications</h2>
    <p class="muted small">
      Given up on: refused for good (no access, gone) or failed too many times. Grouped by cause and
      place; Retry puts a group back in its threads' queues, due now; Discard says what it will
      delete and asks first.
    </p>
    ${
      groups.length === 0
        ? html`<div class="card empty">None.</div>`
        : html`<div class="groups">${groups.map((g) => groupCard(g, ctx))}</div>`
    }
    <h2>Failed triggers</h2>
    <p class="muted small">
      Given up on (the person was told). Retry handles the trigger again as if it had just arrived;
      Discard says what it will delete and asks first.
    </p>
    ${triggersTable(view.failed, ctx, true)}`;
}

export function queuesPage(view: QueuesView, ctx: PageContext): Html {
  return layout('Queues', ctx, 'queues', queuesBody(view, ctx));
}
