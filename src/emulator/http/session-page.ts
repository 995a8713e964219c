/**
 * GET /sessions/:sessionId: the small HTML page a run's session_link points at. Everything
 * shown is escaped; only http(s) URLs become links.
 */
import { isLiveState } from '../../agent/schemas.js';
import type { EmulatorCore } from '../model/emulator-core.js';
import type { Route } from './http-io.js';
import { EmulatorProblem } from './problem.js';
import type { EmuRun } from '../model/types.js';

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function link(url: unknown): string {
  if (typeof url !== 'string') return '';
  const safe = /^https?:\/\//i.test(url);
  return safe ? `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>` : escapeHtml(url);
}

const when = (ms: number) => escapeHtml(new Date(ms).toISOString());

export function renderSessionPage(
  run: EmuRun,
  followups: { message: string; mode?: string; at: number }[],
): string {
  const rows = (items: string[]) => (items.length ? `<ul>${items.join('')}</ul>` : '<p>None.</p>');
  const history = run.history.map((h) => `<li>${when(h.at)} ${escapeHtml(h.state)}</li>`);
  const fups = followups.map(
    (f) =>
      `<li>${when(f.at)}${f.mode ? ` (${escapeHtml(f.mode)})` : ''}: <pre>${escapeHtml(f.message)}</pre></li>`,
  );
  const artifacts = run.artifacts.map(
    (a) =>
      `<li>${escapeHtml(a.artifact_type)} ${link(a.data.url)} ${escapeHtml(String(a.data.branch ?? ''))}</li>`,
  );
  const refresh = isLiveState(run.state) ? '<meta http-equiv="refresh" content="3">' : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">${refresh}
<title>${escapeHtml(run.title)} · ${escapeHtml(run.state)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem}pre{white-space:pre-wrap;background:#f4f4f4;padding:.5rem}</style>
</head><body>
<h1>${escapeHtml(run.title)}</h1>
<p>State: <strong id="state">${escapeHtml(run.state)}</strong> · Run <code>${escapeHtml(run.runId)}</code></p>
${run.statusMessage ? `<p id="status-message">${escapeHtml(run.statusMessage.message)}</p>` : ''}
<h2>Prompt</h2><pre id="prompt">${escapeHtml(run.prompt)}</pre>
<h2>Follow-ups</h2>${rows(fups)}
<h2>Artifacts</h2>${rows(artifacts)}
${run.plan ? `<h2 id="plan">${escapeHtml(run.plan.title)}</h2><pre>${escapeHtml(run.plan.content)}</pre>` : ''}
<h2>History</h2>${rows(history)}
<p><small>Agent Run Service emulator</small></p>
</body></html>
`;
}

export function sessionRoutes(core: EmulatorCore): Route[] {
  return [
    {
      method: 'GET',
      path: '/sessions/:sessionId',
      handle(req) {
        core.now();
        const run = core.store.getBySession(req.params.sessionId ?? '');
        if (!run) throw new EmulatorProblem(404, 'resource_not_found', 'no such session');
        const followups = core.store.followups.filter((f) => f.runId === run.runId);
        return {
          status: 200,
          html: renderSessionPage(run, followups),
          headers: {
            'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
            'x-content-type-options': 'nosniff',
          },
        };
      },
    },
  ];
}
