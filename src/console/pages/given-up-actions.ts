/**
 * Retry and Discard of given-up items (parked notifications, failed triggers), one or a group
 * at once. Retry acts at once (it only puts items back in their queue); Discard first opens a
 * page that says what will be deleted and what that means, and acts only when confirmed there.
 */
import type { GivenUpKind } from '../../core/ports/index.js';
import { html } from '../html.js';
import type { Html } from '../html.js';
import type { PageContext } from './layout.js';

/** The confirmation page of a Discard. */
export const DISCARD_PATH = '/console/queues/discard';

/** At most this many items in one group action (a page lists at most a hundred of each). */
export const MAX_GROUP = 500;

/** A form that posts an action on these items at once. */
export function actionForm(
  action: 'retry' | 'discard',
  kind: GivenUpKind,
  ids: readonly number[],
  label: string,
  attrs: { cls: string; dataAction: string },
  ctx: PageContext,
): Html {
  return html`<form method="post" action="/console/actions">
    <input type="hidden" name="csrf" value="${ctx.csrf}" />
    <input type="hidden" name="kind" value="${kind}" />
    ${
      ids.length === 1
        ? html`<input type="hidden" name="id" value="${ids[0]}" />`
        : html`<input type="hidden" name="ids" value="${ids.join(',')}" />`
    }
    <input type="hidden" name="action" value="${action}" />
    <input type="hidden" name="back" value="${ctx.here}" />
    <button type="submit" class="${attrs.cls}" data-action="${attrs.dataAction}">${label}</button>
  </form>`;
}

/** A Discard button: it opens the confirmation page; nothing is deleted yet. */
export function discardAsk(
  kind: GivenUpKind,
  ids: readonly number[],
  label: string,
  dataAction: string,
  ctx: PageContext,
): Html {
  return html`<form method="get" action="${DISCARD_PATH}">
    <input type="hidden" name="kind" value="${kind}" />
    <input type="hidden" name="ids" value="${ids.join(',')}" />
    <input type="hidden" name="back" value="${ctx.here}" />
    <button type="submit" class="danger" data-action="${dataAction}">${label}</button>
  </form>`;
}

/** Item ids from a form or query: `ids=1,2,3` or `id=1`; undefined when any is not one. */
export function parseIds(form: URLSearchParams): number[] | undefined {
  const raw = form.get('ids') ?? form.get('id');
  if (raw === null || raw === '') return undefined;
  const parts = raw.split(',');
  if (parts.length > MAX_GROUP) return undefined;
  const ids = parts.map((p) => (/^\d{1,15}$/.test(p.trim()) ? Number(p.trim()) : NaN));
  if (ids.some((id) => !Number.isSafeInteger(id) || id <= 0)) return undefined;
  return [...new Set(ids)];
}
