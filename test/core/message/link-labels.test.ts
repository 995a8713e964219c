/**
 * Links in the agent's words, as each platform shows them: a label that reads like an address
 * or a pull request keeps its place only when the link goes there; otherwise the reader sees
 * the real address. On Linear `@name` and a link to a person's profile mention no one.
 */
import { describe, expect, it } from 'vitest';
import { honestLabel } from '../../../src/core/message/link-label.js';
import { agentMarkdown as githubWords } from '../../../src/github/render/agent-words.js';
import { agentMarkdown as linearWords } from '../../../src/linear/render/agent-words.js';
import { agentMrkdwn } from '../../../src/slack/render/agent-words.js';

const EVIL = 'https://evil.example/login';

describe('a link label that reads like a place', () => {
  it.each([
    ['octo/app#12', EVIL, EVIL],
    ['#12', EVIL, EVIL],
    ['PR 12', EVIL, EVIL],
    ['https://github.com/octo/app/pull/12', EVIL, EVIL],
    ['github.com/octo/app/pull/12', EVIL, EVIL],
    ['www.github.com', EVIL, EVIL],
    // Honest labels stay.
    ['octo/app#12', 'https://github.com/octo/app/pull/12', 'octo/app#12'],
    ['#12', 'https://github.com/octo/app/issues/12', '#12'],
    [
      'https://github.com/octo/app/pull/12',
      'https://github.com/octo/app/pull/12/',
      'https://github.com/octo/app/pull/12',
    ],
    ['the pull request', EVIL, 'the pull request'],
    ['README.md', 'https://github.com/octo/app/blob/main/README.md', 'README.md'],
    [
      'octo/app#12',
      'https://github.com/octo/other/pull/12',
      'https://github.com/octo/other/pull/12',
    ],
  ])('%s -> %s shows %s', (label, href, shown) => {
    expect(honestLabel(label, href)).toBe(shown);
  });

  it('each platform shows the real address for a misleading label', () => {
    const words = `Opened [octo/app#12](${EVIL}).`;
    expect(githubWords(words)).toContain(`[https://evil.example/login](${EVIL})`);
    expect(githubWords(words)).not.toContain('octo/app#12');
    expect(linearWords(words)).not.toContain('octo/app#12');
    expect(linearWords(words)).toContain(`](${EVIL})`);
    expect(agentMrkdwn(words)).toContain(`<${EVIL}|https://evil.example/login>`);
    expect(agentMrkdwn(words)).not.toContain('octo/app#12');
  });
});

describe('Linear: mentions in the agent’s words', () => {
  it('@name and profile links mention no one', () => {
    const profile = 'https://linear.app/acme/profiles/ada';
    const out = linearWords(`Ping @ada, see [Ada](${profile}) or ${profile}.`);
    expect(out).not.toMatch(/@ada/);
    expect(out).toContain('@\u200bada');
    expect(out).not.toContain(`](${profile})`);
    expect(out).toContain(`\`${profile}\``);
  });
});
