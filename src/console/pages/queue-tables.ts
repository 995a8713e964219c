/** Tables of triggers (inbox) and notifications (outbox), with Retry/Discard where given up. */
import { shortRunId } from '../../core/message/short-run-id.js';
import type { ReactionName } from '../../core/message/message-model.js';
import type { InboxItem, OutboxItem } from '../../core/ports/index.js';
import { html } from '../html.js';
import type { Html } from '../html.js';
import { givenUpActions, statusBadge, time } from './layout.js';
import type { PageContext } from './layout.js';

/**
 * What a reaction says, in words: the relay's reactions are named for what they mark, and
 * "reaction failed" beside a delivered notification would read as a reaction that failed.
 */
const REACTION_WORDS: Record<ReactionName, string> = {
  seen: 'seen',
  accepted: 'request accepted',
  cancel_requested: 'cancel asked for',
  succeeded: 'run succeeded',
  failed: 'run failed',
  blocked: 'run waits for input',
  cancelled: 'run cancelled',
};

function describeNotification(item: OutboxItem): string {
  const p = item.payload;
  if (p.kind === 'react')
    return p.reaction === undefined ? 'reaction' : `reaction: ${REACTION_WORDS[p.reaction]}`;
  // The run's short id, as cards and lists show it: the full one would take lines on a phone.
  if (p.kind === 'status') return `status message${p.runId ? ` of ${shortRunId(p.runId)}` : ''}`;
  return 'reply';
}

/** What tells a queue's table apart: its rows' kind, what they hold and when they came. */
interface QueueColumns<T extends InboxItem | OutboxItem> {
  kind: 'notification' | 'trigger';
  what: string;
  describe: (item: T) => Html | string;
  when: string;
  /** The status in which an item was given up (Retry/Discard). */
  givenUp: T['status'];
}

function queueTable<T extends InboxItem | OutboxItem>(
  items: T[],
  ctx: PageContext,
  withThread: boolean,
  c: QueueColumns<T>,
): Html {
  if (items.length === 0) return html`<div class="card empty">None.</div>`;
  return html`<table class="rows ${c.kind}s">
    <thead>
      <tr>
        <th>#</th>
        <th>${c.what}</th>
        ${withThread ? html`<th>Thread</th>` : ''}
        <th>Status</th>
        <th>Attempts</th>
        <th>Error</th>
        <th>${c.when}</th>
        <th></th>
      </tr>
    </thead>
    <tbody>
      ${items.map(
        (item) =>
          html`<tr data-${c.kind}="${item.id}" data-status="${item.status}">
            <td data-label="#">${item.id}</td>
            <td data-label="${c.what}">${c.describe(item)}</td>
            ${withThread ? html`<td data-label="Thread" class="small">${item.threadKey}</td>` : ''}
            <td data-label="Status">${statusBadge(item.status)}</td>
            <td data-label="Attempts">${item.attempts}</td>
            <td data-label="Error" class="err">${item.lastError ?? ''}</td>
            <td data-label="${c.when}">${time(item.createdAt)}</td>
            <td>${item.status === c.givenUp ? givenUpActions(c.kind, item.id, ctx) : ''}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

export function notificationsTable(
  items: OutboxItem[],
  ctx: PageContext,
  withThread: boolean,
): Html {
  return queueTable(items, ctx, withThread, {
    kind: 'notification',
    what: 'What',
    describe: describeNotification,
    when: 'Queued',
    givenUp: 'parked',
  });
}

export function triggersTable(items: InboxItem[], ctx: PageContext, withThread: boolean): Html {
  return queueTable(items, ctx, withThread, {
    kind: 'trigger',
    what: 'Trigger',
    describe: (t) => html`
      ${t.trigger.kind} by ${t.trigger.actor.name ?? t.trigger.actor.id}
      <div class="muted small">${t.trigger.text.slice(0, 140)}</div>
    `,
    when: 'Received',
    givenUp: 'failed',
  });
}
