/** The queues: depth, oldest waiting, failed triggers and parked notifications with Retry/Discard. */
import type { InboxItem, OutboxItem, QueueHealth } from '../../core/ports/index.js';
import { html } from '../html.js';
import type { Html } from '../html.js';
import { age, layout } from './layout.js';
import type { PageContext } from './layout.js';
import { notificationsTable, triggersTable } from './queue-tables.js';

export interface QueuesView {
  health: QueueHealth;
  parked: OutboxItem[];
  failed: InboxItem[];
}

function stat(n: number | string, label: string, alert = false): Html {
  return html`<div class="card stat${alert ? ' alert' : ''}">
    <div class="n">${n}</div>
    <div class="l">${label}</div>
  </div>`;
}

export function queuesBody(view: QueuesView, ctx: PageContext): Html {
  const { inbox, outbox } = view.health;
  return html`<h1>Queues</h1>
    <div class="grid" id="queue-health">
      ${stat(inbox.waiting + inbox.processing, 'triggers waiting (inbox)')}
      ${stat(age(inbox.oldestWaitingAt, ctx.now), 'oldest waiting trigger')}
      ${stat(inbox.failed, 'failed triggers', inbox.failed > 0)}
      ${stat(outbox.waiting, 'notifications waiting (outbox)')}
      ${stat(age(outbox.oldestWaitingAt, ctx.now), 'oldest waiting notification')}
      ${stat(outbox.parked, 'parked notifications', outbox.parked > 0)}
    </div>
    <h2>Parked notifications</h2>
    <p class="muted small">
      Given up after too many failed deliveries. Retry puts one back in its thread's queue, due now;
      Discard deletes it.
    </p>
    ${notificationsTable(view.parked, ctx, true)}
    <h2>Failed triggers</h2>
    <p class="muted small">
      Given up on (the person was told). Retry handles the trigger again as if it had just arrived;
      Discard deletes it.
    </p>
    ${triggersTable(view.failed, ctx, true)}`;
}

export function queuesPage(view: QueuesView, ctx: PageContext): Html {
  return layout('Queues', ctx, 'queues', queuesBody(view, ctx));
}
