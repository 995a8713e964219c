import { describe, expect, it } from 'vitest';
import {
  renderGitHubMarkdown,
  renderGitHubMessage,
} from '../../../src/github/render/render-markdown.js';
import { GITHUB_COMMENT_LIMIT } from '../../../src/github/render/split-comment.js';
import { SAMPLE_MODELS, sampleRun } from '../models.js';

const ZWSP = '\u200b';

describe('renderGitHubMessage snapshots', () => {
  for (const [name, model] of Object.entries(SAMPLE_MODELS)) {
    it(`renders ${name}`, () => {
      const parts = renderGitHubMessage(model, { commandWord: '/agent', botHandle: 'agent-relay' });
      expect(parts).toHaveLength(1);
      expect(parts[0]).toMatchSnapshot();
    });
  }
});

describe('renderGitHubMessage content', () => {
  it('a card says once how to reply: the "Next:" line, or else the footer', () => {
    for (const state of ['INPROGRESS', 'SUCCEEDED', 'FAILED', 'CANCELLED', 'BLOCKED']) {
      const body = renderGitHubMarkdown({ type: 'run_status', run: sampleRun(state) });
      const says = body.match(/`@agent-relay <(message|answer)>`/g) ?? [];
      expect(says, state).toHaveLength(1);
    }
  });

  it("a cancelled run's card says cancelled, not stopped (Stop interrupts; the run goes on)", () => {
    const head = renderGitHubMarkdown({ type: 'run_status', run: sampleRun('CANCELLED') }).split(
      '\n',
    )[0]!;
    expect(head).toMatch(/^🚫 \*\*agent-relay\*\* was cancelled: \*\*.+\*\* · for @\S+ after /);
    expect(head).not.toContain('stopped');
  });

  it('the outcome reply carries the pull request, the one link a person notified wants', () => {
    const body = renderGitHubMarkdown({ type: 'run_outcome', run: sampleRun('SUCCEEDED') });
    expect(body).toContain('[octo-org/widgets#9](https://github.com/octo-org/widgets/pull/9)');
  });

  it('status: state, requester (not pinged), settings with sources, links, commands', () => {
    const body = renderGitHubMarkdown({ type: 'run_status', run: sampleRun('INPROGRESS') });
    expect(body).toContain('| State | 🏃 Running (`INPROGRESS`) |');
    expect(body).toContain(`| Requested by | @${ZWSP}alice |`);
    expect(body).toContain(
      '| Settings | model gpt-x\\|large (inline option) · environment `env_node20` (repository default) · service defaults: skill |',
    );
    expect(body).toContain('[Session](https://service.example/sessions/s_123)');
    expect(body).toContain('[octo-org/widgets#9](https://github.com/octo-org/widgets/pull/9)');
    expect(body).toContain('| Run | `run_01HZX3K9` |');
    expect(body).toContain('| Run time | 4m 12s |');
    expect(body).toContain('`/agent status` · `/agent cancel`');
    // Our own comment must never address the bot or start a line with the command word.
    expect(body).not.toMatch(/^\/agent/m);
    expect(body).not.toMatch(/(^|[^`])@agent-relay/);
  });

  it('escapes user and service text: HTML, emphasis, mentions', () => {
    const body = renderGitHubMarkdown(SAMPLE_MODELS['run_status failed']!);
    expect(body).toContain('Fix the \\*flaky\\* parser test &lt;script&gt;');
    expect(body).not.toContain('<script>');
    expect(body).toContain(`@${ZWSP}bob broke \\\`main\\\``);
    expect(body).toContain('> \\# 3 failing');
  });

  it('outcome pings the requester and only them', () => {
    const body = renderGitHubMarkdown(SAMPLE_MODELS['run_outcome succeeded']!);
    expect(body.startsWith('@alice ✅ Run succeeded')).toBe(true);
    expect(body).toContain('succeeded');
    expect(body).toContain('succeeded in 4m 12s');
    const pings = body.match(/(^|[^A-Za-z0-9_`\u200b])@[A-Za-z0-9]/g) ?? [];
    expect(pings).toHaveLength(1);
  });

  it('a BLOCKED run: the card quotes the question and says how to answer; the outcome points at it', () => {
    const outcome = SAMPLE_MODELS['run_outcome blocked']!;
    if (outcome.type !== 'run_outcome') throw new Error('sample is not an outcome');
    const card = renderGitHubMarkdown({ type: 'run_status', run: outcome.run });
    expect(card).toContain('> Which branch should I target: main or release/2.x?');
    expect(card).toContain('`@agent-relay <answer>`');
    const body = renderGitHubMarkdown(outcome);
    expect(body).toContain('is waiting for your input');
    expect(body).not.toContain('Which branch should I target');
    expect(body).not.toContain('`@agent-relay <answer>`');
    expect(body.split('\n')).toHaveLength(1);
  });

  it('a pipe in a value never adds a table cell (cmark-gfm reads \\\\ as an escaped backslash)', () => {
    const body = renderGitHubMarkdown({
      type: 'config',
      scope: 'github:o/r',
      settings: [{ key: 'model', value: '\\| a | b |', updatedBy: 'alice' }],
      changed: [],
    });
    const row = body.split('\n').find((l) => l.startsWith('| `model`')) ?? '';
    // Count the pipes a GFM table scanner splits on: a backslash escapes any punctuation.
    let cells = 0;
    for (let i = 0; i < row.length; i++) {
      if (row[i] === '\\' && /[!-/:-@[-`{-~]/.test(row[i + 1] ?? '')) i++;
      else if (row[i] === '|') cells++;
    }
    expect(cells).toBe(4);
    expect(row).toContain('\\\\\\| a \\| b \\|');
  });

  it('names a factory the run went to even without a recorded setting', () => {
    const run = sampleRun('QUEUED', { factory: { alias: 'docs', name: 'Docs factory' } });
    const body = renderGitHubMarkdown({ type: 'run_status', run });
    expect(body).toContain('factory `docs` Docs factory');
  });

  it('a refusal notice mentions the person on purpose', () => {
    const body = renderGitHubMarkdown(SAMPLE_MODELS['notice refusal']!);
    expect(body).toBe('ℹ️ @mallory Only collaborators may start runs here.');
  });

  it('usage in a notice survives a fence inside it', () => {
    const body = renderGitHubMarkdown(SAMPLE_MODELS['notice error with usage']!);
    expect(body).toContain(
      '````\n@agent-relay [model=<id>] <prompt>\n```\nnested fence\n```\n````',
    );
  });

  it('splits an oversized card into comments within the limit; its outcome stays one line', () => {
    const huge = Array.from({ length: 4000 }, (_, i) => `line ${i} ${'x'.repeat(40)}`).join('\n');
    const run = sampleRun('FAILED', { statusMessage: huge });
    // The card holds the agent's words, so it is what grows.
    const parts = renderGitHubMessage({ type: 'run_status', run });
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(parts[0]?.startsWith('❌')).toBe(true);
    expect(parts.join('\n')).toContain('line 3999');
    const outcome = renderGitHubMessage({ type: 'run_outcome', run });
    expect(outcome).toHaveLength(1);
    expect(outcome[0]?.startsWith('@alice')).toBe(true);
    expect(outcome[0]).not.toContain('line 0');
  });

  it('honours a smaller limit', () => {
    const parts = renderGitHubMessage(SAMPLE_MODELS.run_list!, { limit: 300 });
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(300);
  });
});

describe('renderGitHubMessage outcome links', () => {
  it('names the session once when the links already lead with it', () => {
    const run = sampleRun('SUCCEEDED');
    const withSession = {
      ...run,
      links: [{ kind: 'session' as const, label: 'Session', url: run.sessionLink }, ...run.links],
    };
    const body = renderGitHubMarkdown({ type: 'run_status', run: withSession });
    expect(body.match(/\[Session\]\(/g)).toHaveLength(1);
    // The outcome points at the card and repeats none of its links.
    const outcome = renderGitHubMarkdown({ type: 'run_outcome', run: withSession });
    expect(outcome).not.toContain('[Session](');
  });
});
