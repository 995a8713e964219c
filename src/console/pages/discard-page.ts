/**
 * The confirmation of a Discard: what will be deleted (each item, its place and error), what
 * that means (never delivered or carried out; nothing is posted; the runs are untouched; no
 * undo), and the one button that does it. Items no longer given up are named as left alone.
 */
import type { GivenUpKind, InboxItem, OutboxItem } from '../../core/ports/index.js';
import { html } from '../html.js';
import type { Html } from '../html.js';
import { actionForm } from './given-up-actions.js';
import { layout } from './layout.js';
import type { PageContext } from './layout.js';
import { notificationsTable, triggersTable } from './queue-tables.js';

export interface DiscardView {
  kind: GivenUpKind;
  /** The asked-for items that are still given up (the ones a Discard would delete). */
  notifications: OutboxItem[];
  triggers: InboxItem[];
  /** How many were asked for. */
  asked: number;
  /** Where Cancel and the result go. */
  back: string;
}

export function discardBody(view: DiscardView, ctx: PageContext): Html {
  const items = view.kind === 'notification' ? view.notifications : view.triggers;
  const n = items.length;
  const noun =
    view.kind === 'notification'
      ? n === 1
        ? 'parked notification'
        : 'parked notifications'
      : n === 1
        ? 'failed trigger'
        : 'failed triggers';
  const gone = view.asked - n;
  const status = view.kind === 'notification' ? 'parked' : 'failed';
  const cancel = html`<a href="${view.back}" class="button" data-action="cancel">Cancel</a>`;
  if (n === 0) {
    return html`<h1>Nothing to discard</h1>
      <p class="card" id="confirm">
        ${view.asked === 1 ? 'It is' : `The ${view.asked} are`} no longer ${status}: retried or
        discarded meanwhile. Nothing was changed.
      </p>
      <p>${cancel}</p>`;
  }
  const meaning =
    view.kind === 'notification'
      ? html`They are deleted from the outbox and will never be delivered: nothing is posted to
        Slack or GitHub, and the runs they are about are not affected.`
      : html`They are deleted from the inbox and will never be carried out: no run is started, and
        the people who asked are not told again.`;
  return html`<h1>Discard ${n} ${noun}?</h1>
    <div class="card" id="confirm">
      <p>${meaning} This cannot be undone; Retry instead if they should still go out.</p>
      ${
        gone > 0
          ? html`<p class="muted">
              ${gone} of the ${view.asked} asked for ${gone === 1 ? 'is' : 'are'} no longer
              ${status} and will be left alone.
            </p>`
          : ''
      }
      <div class="actions">
        ${actionForm(
          'discard',
          view.kind,
          items.map((i) => i.id),
          `Discard ${n}`,
          { cls: 'danger', dataAction: 'confirm-discard' },
          { ...ctx, here: view.back },
        )}
        ${cancel}
      </div>
    </div>
    <h2>What will be deleted</h2>
    ${
      view.kind === 'notification'
        ? notificationsTable(view.notifications, { ...ctx, role: 'viewer' }, true)
        : triggersTable(view.triggers, { ...ctx, role: 'viewer' }, true)
    }`;
}

export function discardPage(view: DiscardView, ctx: PageContext): Html {
  return layout('Discard?', ctx, 'queues', discardBody(view, ctx));
}
