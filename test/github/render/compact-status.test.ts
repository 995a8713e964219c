/**
 * The GitHub status comment: one compact header line a person reads at a glance, the detail
 * folded into a `<details>` table, settings the service chose said once, and a next step
 * whenever a run did not succeed.
 */
import { describe, expect, it } from 'vitest';
import { renderGitHubMarkdown } from '../../../src/github/render/render-markdown.js';
import { sampleRun } from '../models.js';

const ZWSP = '\u200b';
const SESSION = 'https://service.example/sessions/s_123';
const count = (text: string, part: string) => text.split(part).length - 1;

describe('GitHub status comment', () => {
  it('leads with one header line: who, what, how long, and the links', () => {
    const body = renderGitHubMarkdown({ type: 'run_status', run: sampleRun('SUCCEEDED') });
    const [first] = body.split('\n');
    expect(first).toMatch(/^✅ \*\*agent-relay\*\* finished: /);
    expect(first).toContain(`@${ZWSP}alice`);
    expect(first).toContain('in 4m 12s');
    expect(first).toContain(`[Session](${SESSION})`);
    expect(first).toContain('[octo-org/widgets#9](https://github.com/octo-org/widgets/pull/9)');
    expect(body).toMatch(/<details>\n<summary>[^\n]+<\/summary>\n\n\| /);
    // GitHub does not read Markdown inside an HTML block: no backticks in the summary.
    expect(body).not.toMatch(/<summary>[^\n]*`/);
    expect(count(body, SESSION)).toBe(1);
  });

  it("names a pull request's branch beside it", () => {
    const run = sampleRun('SUCCEEDED', {
      links: [
        {
          kind: 'pull_request',
          label: 'PR: acme/web#6',
          url: 'https://github.com/acme/web/pull/6',
          branch: 'fix/login',
        },
      ],
    });
    const [first] = renderGitHubMarkdown({ type: 'run_status', run }).split('\n');
    expect(first).toContain('[PR: acme/web#6](https://github.com/acme/web/pull/6) `fix/login`');
  });

  it('a Slack person is named, never shown by a raw Slack id', () => {
    const slackPerson = { platform: 'slack' as const, id: 'U0ALICE01' };
    for (const type of ['run_status', 'run_outcome'] as const) {
      const body = renderGitHubMarkdown({
        type,
        run: sampleRun('SUCCEEDED', { requester: slackPerson }),
      });
      expect(body).not.toContain('U0ALICE01');
    }
  });

  it('says once that the service chose the rest', () => {
    const body = renderGitHubMarkdown({
      type: 'run_status',
      run: sampleRun('INPROGRESS', {
        applied: [
          { key: 'model', source: 'service' },
          { key: 'env', source: 'service' },
          { key: 'skill', source: 'service' },
        ],
      }),
    });
    expect(body).not.toContain('— · service default');
    expect(count(body, 'service default')).toBe(1);
  });

  it('a failure says what to do next, and never "failed (Failed)"', () => {
    for (const state of ['FAILED', 'ERROR']) {
      const run = sampleRun(state, { statusMessage: 'npm ci exited 1' });
      const body = renderGitHubMarkdown({ type: 'run_status', run });
      expect(body).not.toMatch(/failed \(Failed\)/i);
      expect(body).toContain('`@agent-relay <message>`');
      expect(body).toContain('`@agent-relay new <prompt>`');
      // The outcome points at the card for what to do next, without repeating it.
      const outcome = renderGitHubMarkdown({ type: 'run_outcome', run });
      expect(outcome).not.toMatch(/failed \(Failed\)/i);
      expect(outcome).toContain('what to do next');
      expect(outcome).not.toContain('`@agent-relay new <prompt>`');
    }
  });
});

describe('run ids', () => {
  it('short where people read (the summary, lists); the full one in the details to copy', () => {
    const run = sampleRun('INPROGRESS', { runId: 'a1b2c3d4-0000-4000-8000-000000000061' });
    const body = renderGitHubMarkdown({ type: 'run_status', run });
    expect(body).toContain('<summary>Details of run a1b2c3d4</summary>');
    expect(body).toContain('| Run | `a1b2c3d4-0000-4000-8000-000000000061` |');
    expect(count(body, 'a1b2c3d4-0000')).toBe(1);
    const list = renderGitHubMarkdown({
      type: 'run_list',
      runs: [run],
      filters: {},
      truncated: false,
    });
    expect(list).toContain('`a1b2c3d4`');
    expect(list).not.toContain('a1b2c3d4-0000');
  });
});
