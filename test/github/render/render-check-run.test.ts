import { describe, expect, it } from 'vitest';
import { runStatusMessage } from '../../../src/core/message/render-model.js';
import { toRunView } from '../../../src/core/message/run-view.js';
import { renderCheckRun } from '../../../src/github/render/render-check-run.js';

const NOW = Date.parse('2026-03-02T10:06:00Z');
function view(state: string, extra: Record<string, unknown> = {}) {
  return runStatusMessage(
    toRunView({
      run: {
        run_id: 'run_1',
        title: 'Fix @octo-org/admins <b>now</b> '.repeat(10),
        prompt: 'p',
        state,
        created_at: '2026-03-02T10:00:00Z',
        updated_at: '2026-03-02T10:02:00Z',
        session_link: 'https://agents.example.com/s/1',
        ...extra,
      },
      record: { requester: { platform: 'github', id: 'alice' } },
      now: NOW,
    }),
  ).run;
}

describe('renderCheckRun', () => {
  it.each([
    // GitHub shows buttons only on a completed check run: none while the run works.
    ['INPROGRESS', 'in_progress', undefined, []],
    ['QUEUED', 'in_progress', undefined, []],
    ['SUCCEEDED', 'completed', 'success', []],
    ['FAILED', 'completed', 'failure', []],
    ['ERROR', 'completed', 'failure', []],
    ['CANCELLED', 'completed', 'cancelled', []],
    ['BLOCKED', 'completed', 'action_required', ['cancel']],
  ])('%s -> %s %s with buttons %j', (state, status, conclusion, buttons) => {
    const check = renderCheckRun(view(state));
    expect(check.status).toBe(status);
    expect(check.conclusion).toBe(conclusion);
    expect(check.actions.map((a) => a.identifier)).toEqual(buttons);
    for (const a of check.actions) {
      expect(a.identifier.length).toBeLessThanOrEqual(20);
      expect(a.label.length).toBeLessThanOrEqual(20);
      expect(a.description.length).toBeLessThanOrEqual(40);
    }
    expect(check.external_id).toBe('run_1');
    expect(check.details_url).toBe('https://agents.example.com/s/1');
    expect(renderCheckRun(view(state), { pullNumber: 7 }).external_id).toBe('run_1#7');
  });

  it('says how to stop or cancel while the run works, and only then', () => {
    const working = renderCheckRun(view('INPROGRESS'), { botHandle: 'relay-bot' });
    expect(working.output.summary).toContain(
      '**Stop or cancel:** comment `@relay-bot stop` (interrupt the agent) or `@relay-bot cancel`',
    );
    for (const state of ['BLOCKED', 'SUCCEEDED', 'CANCELLED'])
      expect(renderCheckRun(view(state)).output.summary).not.toContain('Stop or cancel');
  });

  it('bounds the name and keeps what people wrote from pinging anyone or becoming HTML', () => {
    const check = renderCheckRun(
      view('FAILED', { status_message: { message: 'ping @alice <img src=x>' } }),
    );
    expect(check.name.length).toBeLessThanOrEqual(100);
    expect(check.name.startsWith('agent-relay: ')).toBe(true);
    expect(check.output.summary).not.toMatch(/(^|[^`\\w])@alice/);
    expect(check.output.summary).not.toContain('<img');
  });

  it('names a pull request once: its label already says "PR:", a bare URL gets the word', () => {
    const artifacts = (url: string) => ({
      artifacts: [{ artifact_type: 'PULL_REQUEST', data: { url, branch: 'fix/redirect' } }],
    });
    const onGitHub = renderCheckRun(
      view('SUCCEEDED', artifacts('https://github.com/acme/web/pull/7')),
    ).output.summary;
    expect(onGitHub).toContain('[PR: acme/web#7](https://github.com/acme/web/pull/7)');
    expect(onGitHub).not.toContain('Pull request:');
    const elsewhere = renderCheckRun(
      view('SUCCEEDED', artifacts('https://git.example.com/merge/7')),
    ).output.summary;
    expect(elsewhere).toContain(
      '**Pull request:** [https://git.example.com/merge/7](https://git.example.com/merge/7)',
    );
  });
});
