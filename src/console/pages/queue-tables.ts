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

export function notificationsTable(
  items: OutboxItem[],
  ctx: PageContext,
  withThread: boolean,
): Html {
  if (items.length === 0) return html`<div class="card empty">None.</div>`;
  return html`<table class="rows notifications">
    <thead>
      <tr>
        <th>#</th>
        <th>What</th>
        ${withThread ? html`<th>Thread</th>` : ''}
        <th>Status</th>
        <th>Attempts</th>
        <th>Error</th>
        <th>Queued</th>
        <th></th>
      </tr>
    </thead>
    <tbody>
      ${items.map(
        (n) =>
          html`<tr data-notification="${n.id}" data-status="${n.status}">
            <td data-label="#">${n.id}</td>
            <td data-label="What">${describeNotification(n)}</td>
            ${withThread ? html`<td data-label="Thread" class="small">${n.threadKey}</td>` : ''}
            <td data-label="Status">${statusBadge(n.status)}</td>
            <td data-label="Attempts">${n.attempts}</td>
            <td data-label="Error" class="err">${n.lastError ?? ''}</td>
            <td data-label="Queued">${time(n.createdAt)}</td>
            <td>${n.status === 'parked' ? givenUpActions('notification', n.id, ctx) : ''}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

export function triggersTable(items: InboxItem[], ctx: PageContext, withThread: boolean): Html {
  if (items.length === 0) return html`<div class="card empty">None.</div>`;
  return html`<table class="rows triggers">
    <thead>
      <tr>
        <th>#</th>
        <th>Trigger</th>
        ${withThread ? html`<th>Thread</th>` : ''}
        <th>Status</th>
        <th>Attempts</th>
        <th>Error</th>
        <th>Received</th>
        <th></th>
      </tr>
    </thead>
    <tbody>
      ${items.map(
        (t) =>
          html`<tr data-trigger="${t.id}" data-status="${t.status}">
            <td data-label="#">${t.id}</td>
            <td data-label="Trigger">
              ${t.trigger.kind} by ${t.trigger.actor.name ?? t.trigger.actor.id}
              <div class="muted small">${t.trigger.text.slice(0, 140)}</div>
            </td>
            ${withThread ? html`<td data-label="Thread" class="small">${t.threadKey}</td>` : ''}
            <td data-label="Status">${statusBadge(t.status)}</td>
            <td data-label="Attempts">${t.attempts}</td>
            <td data-label="Error" class="err">${t.lastError ?? ''}</td>
            <td data-label="Received">${time(t.createdAt)}</td>
            <td>${t.status === 'failed' ? givenUpActions('trigger', t.id, ctx) : ''}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}
