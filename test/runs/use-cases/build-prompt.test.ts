import { describe, expect, it } from 'vitest';
import { buildPrompt, CONTEXT_LIMITS } from '../../../src/runs/use-cases/build-prompt.js';

describe('buildPrompt', () => {
  it('returns the prompt alone when there is no context', () => {
    expect(buildPrompt({ prompt: '  fix it  ', context: {}, maxChars: 1000 })).toBe('fix it');
  });

  it('adds Slack thread messages oldest first, marking bots', () => {
    const out = buildPrompt({
      prompt: 'summarise',
      context: {},
      threadMessages: [
        { author: 'alice', text: 'the build is red' },
        { author: 'relay', text: 'status: running', isBot: true },
      ],
      maxChars: 10_000,
    });
    expect(out.startsWith('summarise\n\n---\n')).toBe(true);
    expect(out.indexOf('- alice: the build is red')).toBeLessThan(
      out.indexOf('- relay (bot): status: running'),
    );
  });

  it('prefers messages fetched by the core over none in the trigger', () => {
    const out = buildPrompt({
      prompt: 'go',
      context: { threadMessages: [{ author: 'bob', text: 'from ingress' }] },
      threadMessages: [{ author: 'carol', text: 'from notifier' }],
      maxChars: 10_000,
    });
    expect(out).toContain('carol: from notifier');
    expect(out).not.toContain('from ingress');
  });

  it('formats a GitHub issue, its comment and a review hunk', () => {
    const out = buildPrompt({
      prompt: 'fix the typo',
      context: {
        issue: {
          repo: 'o/r',
          number: 7,
          title: 'Typo',
          body: 'teh',
          url: 'https://github.com/o/r/pull/7',
          isPullRequest: true,
          headRef: 'fix',
          baseRef: 'main',
        },
        comment: { url: 'https://github.com/o/r/pull/7#c1', body: '@agent-relay fix the typo' },
        review: { path: 'src/a.ts', line: 12, diffHunk: '@@ -1,2 +1,2 @@\n-a\n+b' },
      },
      maxChars: 10_000,
    });
    expect(out).toContain('Pull request o/r#7: Typo');
    expect(out).toContain('URL: https://github.com/o/r/pull/7');
    expect(out).toContain('Branches: fix -> main');
    expect(out).toContain('Review comment on src/a.ts line 12');
    expect(out).toContain('```diff\n@@ -1,2 +1,2 @@\n-a\n+b\n```');
    expect(out).toContain('(https://github.com/o/r/pull/7#c1):\n@agent-relay fix the typo');
  });

  it('bounds each part and the whole, never cutting the prompt', () => {
    const long = 'x'.repeat(50_000);
    const longIssue = {
      repo: 'o/r',
      number: 1,
      title: 't',
      body: long,
      url: 'https://x',
      isPullRequest: false,
    };
    const out = buildPrompt({
      prompt: 'do it',
      context: {
        issue: longIssue,
        review: { path: 'a', diffHunk: 'h'.repeat(20_000) + 'LAST' },
      },
      maxChars: 100_000,
    });
    expect(out.length).toBeLessThan(
      CONTEXT_LIMITS.issueBodyChars + CONTEXT_LIMITS.diffHunkChars + 1_000,
    );
    expect(out).toContain('LAST'); // the hunk keeps its tail (the commented line)
    const small = buildPrompt({
      prompt: 'do it',
      context: {
        issue: longIssue,
      },
      maxChars: 500,
    });
    expect(small.length).toBeLessThanOrEqual(500);
    expect(small.startsWith('do it')).toBe(true);
    expect(small.endsWith('[truncated]')).toBe(true);
  });

  it('keeps the most recent thread messages within the budget', () => {
    const messages = Array.from({ length: 100 }, (_, i) => ({
      author: `u${i}`,
      text: `message ${i}`,
    }));
    const out = buildPrompt({
      prompt: 'p',
      context: { threadMessages: messages },
      maxChars: 100_000,
    });
    expect(out).toContain('u99: message 99');
    expect(out).not.toContain('u0: message 0\n');
    expect(out).toContain('earlier message(s) omitted');
  });
});
