/** The page shell (header, navigation, who is signed in, the live dot) and small shared views. */
import { formatDuration } from '../../core/message/duration.js';
import { stateView } from '../../core/message/state-view.js';
import { html } from '../html.js';
import type { Html } from '../html.js';
import type { Operator } from '../session.js';
import type { ConsoleRole } from '../../core/ports/index.js';
import { actionForm, discardAsk } from './given-up-actions.js';

export interface PageContext {
  operator: Operator;
  /** Operators see the queues and may act; viewers see runs in public places only. */
  role: ConsoleRole;
  /** A viewer's tenant (viewer-scope.ts): the only one whose runs and places they see. */
  tenant?: string;
  csrf: string;
  now: number;
  /** The path and query of this page (where actions come back to). */
  here: string;
  /** The store's change stamp when the page was read (live updates compare with it). */
  stamp: string;
}

/** The page's content as sent in full and on a live refresh: the body and its stamp. */
export function content(body: Html, ctx: PageContext): Html {
  return html`${body}<span id="stamp" data-stamp="${ctx.stamp}" hidden></span>`;
}

/** A whole console page: its head (title, style sheet, the script of live pages) and body. */
export function consoleDocument(title: string, body: Html, live: boolean): Html {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · agent-relay</title>
        <link rel="stylesheet" href="/console/assets/console.css" />
        ${live ? html`<script src="/console/assets/console.js" defer></script>` : ''}
      </head>
      <body>
        ${body}
      </body>
    </html>`;
}

/** A table of rows under its column heads, or one row that says why there are none. */
export function rowsTable(
  attributes: Html,
  heads: (Html | string)[],
  rows: Html[],
  empty: string,
): Html {
  return html`<table ${attributes}>
    <thead>
      <tr>
        ${heads.map((h) => html`<th>${h}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${
        rows.length
          ? rows
          : html`<tr>
              <td colspan="${heads.length}" class="empty">${empty}</td>
            </tr>`
      }
    </tbody>
  </table>`;
}

export function layout(
  title: string,
  ctx: PageContext,
  section: 'runs' | 'queues' | 'places',
  body: Html,
): Html {
  return consoleDocument(
    title,
    html`<header>
        <a class="brand" href="/console">agent-relay</a>
        <nav>
          <a href="/console" class="${section === 'runs' ? 'here' : ''}">Runs</a>
          <a href="/console/places" class="${section === 'places' ? 'here' : ''}">Places</a>
          ${
            ctx.role === 'operator'
              ? html`<a href="/console/queues" class="${section === 'queues' ? 'here' : ''}"
                  >Queues</a
                >`
              : ''
          }
        </nav>
        <span class="who"
          ><span><span id="live" class="dot" title="connecting"></span>live</span>
          <span>${ctx.operator.name} (${ctx.operator.via})</span>
          ${ctx.role === 'viewer' ? html`<span class="role">viewer</span>` : ''}
          <form method="post" action="/console/signout">
            <input type="hidden" name="csrf" value="${ctx.csrf}" /><button type="submit">
              Sign out
            </button>
          </form>
        </span>
      </header>
      <main>${content(body, ctx)}</main>`,
    true,
  );
}

export function stateBadge(state: string): Html {
  const view = stateView(state);
  const kind = view.blocked
    ? 'blocked'
    : view.live
      ? 'live'
      : state === 'SUCCEEDED'
        ? 'succeeded'
        : 'failed';
  return html`<span class="badge ${kind}" data-state="${state}">${view.label}</span>`;
}

export function statusBadge(status: string): Html {
  return html`<span class="badge ${status}">${status}</span>`;
}

export function time(ms: number | undefined): Html {
  if (ms === undefined) return html`<span class="muted">–</span>`;
  const iso = new Date(ms).toISOString();
  return html`<time datetime="${iso}" title="${iso}">${iso.slice(0, 16).replace('T', ' ')}</time>`;
}

/** A time to the second, for histories where a run moves several times a minute. */
export function timeToSecond(ms: number | undefined): Html {
  if (ms === undefined) return html`<span class="muted">–</span>`;
  const iso = new Date(ms).toISOString();
  return html`<time datetime="${iso}" title="${iso}">${iso.slice(0, 19).replace('T', ' ')}</time>`;
}

export function age(ms: number | undefined, now: number): string {
  return ms === undefined ? '–' : formatDuration(Math.max(0, now - ms));
}

/** The Retry and Discard buttons of a given-up item (parked notification, failed trigger). */
export function givenUpActions(
  kind: 'notification' | 'trigger',
  id: number,
  ctx: PageContext,
): Html {
  if (ctx.role !== 'operator') return html``;
  return html`<div class="actions">
    ${actionForm('retry', kind, [id], 'Retry', { cls: 'primary', dataAction: `retry-${kind}-${id}` }, ctx)}
    ${discardAsk(kind, [id], 'Discard…', `discard-${kind}-${id}`, ctx)}
  </div>`;
}
