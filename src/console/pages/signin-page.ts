/** The sign-in page (the only page shown without a session) and plain-words refusals. */
import { html } from '../html.js';
import type { Html } from '../html.js';
import { consoleDocument } from './layout.js';

export function plainPage(title: string, body: Html): Html {
  return consoleDocument(title, html`<main><div class="signin card">${body}</div></main>`, false);
}

export function signinPage(options: {
  providers: { name: string; label: string }[];
  adminLink: boolean;
  next: string;
  problem?: string;
}): Html {
  const q = (name: string) =>
    `/console/signin/${name}?${new URLSearchParams({ next: options.next }).toString()}`;
  return plainPage(
    'Sign in',
    html`<h1>agent-relay console</h1>
      ${options.problem ? html`<p class="err">${options.problem}</p>` : ''}
      ${options.providers.map((p) => html`<a class="button" href="${q(p.name)}">${p.label}</a>`)}
      ${options.adminLink ? html`<p class="muted small">On this machine: open the one-time link agent-relay printed when it started.</p>` : ''}
      ${options.providers.length === 0 && !options.adminLink ? html`<p class="muted">No sign-in is configured.</p>` : ''}`,
  );
}
