/** How a console page answers: in full, or its content alone for a live refresh. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Html } from './html.js';
import { content } from './pages/layout.js';
import type { PageContext } from './pages/layout.js';
import { sendHtml } from './respond.js';

/** A page's handler, called once the session gate has let the request through. */
export type PageHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  ctx: PageContext,
) => Promise<void>;

/** The full page, or (asked by the live script's `x-console-partial: 1`) its content only. */
export function sendPage<V>(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: PageContext,
  view: V,
  full: (view: V, ctx: PageContext) => Html,
  partial: (view: V, ctx: PageContext) => Html,
): void {
  const wantsPartial = req.headers['x-console-partial'] === '1';
  sendHtml(res, 200, wantsPartial ? content(partial(view, ctx), ctx) : full(view, ctx));
}
