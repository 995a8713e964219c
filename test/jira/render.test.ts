/**
 * The Jira renderer: the agent's Markdown as ADF nodes, on the inputs the Slack and GitHub
 * renderers are tested with, and every sample message model as an ADF document (snapshots),
 * with nothing a person or the service wrote turned into a node.
 */
import { describe, expect, it } from 'vitest';
import {
  markdownToAdf,
  plainText,
  renderJiraMessage,
  type AdfBlock,
  type AdfDoc,
} from '../../src/jira/index.js';
import { SAMPLE_MODELS, sampleRun } from '../github/models.js';

const OPTIONS = { botHandle: 'agent-relay' };
const para = (...content: unknown[]) => ({ type: 'paragraph', content });
const t = (text: string, ...marks: unknown[]) =>
  marks.length > 0 ? { type: 'text', text, marks } : { type: 'text', text };

/** Every node of a document, depth first. */
function nodes(node: unknown): { type: string; [k: string]: unknown }[] {
  if (node === null || typeof node !== 'object') return [];
  const n = node as { type: string; content?: unknown[] };
  return [n, ...(n.content ?? []).flatMap(nodes)];
}

describe("the agent's Markdown as ADF", () => {
  const cases: { md: string; adf: unknown[] }[] = [
    {
      md: 'Done. I changed **src/index.ts**.',
      adf: [para(t('Done. I changed '), t('src/index.ts', { type: 'strong' }), t('.'))],
    },
    {
      md: '- `npm test` passes\n- _no_ API change',
      adf: [
        {
          type: 'bulletList',
          content: [
            { type: 'listItem', content: [para(t('npm test', { type: 'code' }), t(' passes'))] },
            { type: 'listItem', content: [para(t('no', { type: 'em' }), t(' API change'))] },
          ],
        },
      ],
    },
    {
      md: 'See [the PR](https://github.com/o/r/pull/1)',
      adf: [
        para(
          t('See '),
          t('the PR', { type: 'link', attrs: { href: 'https://github.com/o/r/pull/1' } }),
        ),
      ],
    },
    {
      md: '# Summary',
      adf: [{ type: 'heading', attrs: { level: 1 }, content: [t('Summary')] }],
    },
    {
      md: '```ts\nconst a = 1 < 2;\n```\n\n> quoted\n\n---\n\n3. three\n4. four',
      adf: [
        { type: 'codeBlock', attrs: { language: 'ts' }, content: [t('const a = 1 < 2;')] },
        { type: 'blockquote', content: [para(t('quoted'))] },
        { type: 'rule' },
        {
          type: 'orderedList',
          attrs: { order: 3 },
          content: [
            { type: 'listItem', content: [para(t('three'))] },
            { type: 'listItem', content: [para(t('four'))] },
          ],
        },
      ],
    },
    {
      md: '**bold `code` inside** and ~~gone~~ & <b>',
      adf: [
        para(
          t('bold ', { type: 'strong' }),
          t('code', { type: 'code' }),
          t(' inside', { type: 'strong' }),
          t(' and '),
          t('gone', { type: 'strike' }),
          t(' & '),
          t('<b>'),
        ),
      ],
    },
  ];
  it.each(cases)('$md', ({ md, adf }) => {
    expect(markdownToAdf(md)).toEqual(adf);
  });

  it('cannot ping anyone, make a node of HTML or sneak in a link', () => {
    const hostile =
      'Hi <!channel> <@U123> @octo-org/team [~accountid:557058:x] <script>x</script> [x](javascript:alert(1))';
    const blocks = markdownToAdf(hostile);
    const all = blocks.flatMap(nodes);
    expect(all.map((n) => n.type).sort()).toEqual([
      'paragraph',
      ...Array(all.length - 1).fill('text'),
    ]);
    expect(JSON.stringify(blocks)).not.toContain('javascript:');
    const words = blocks.map((b) => plainText(b)).join('\n');
    expect(words).toContain('[~accountid:557058:x]');
    expect(words).toContain('<script>x</script>');
  });

  it('never writes an empty text node, which Jira refuses', () => {
    for (const md of ['', '**', '- \n- x', '``', '[](https://x.test)', '> ', '#'])
      for (const n of markdownToAdf(md).flatMap(nodes))
        if (n.type === 'text') expect(n.text).not.toBe('');
  });
});

describe('renderJiraMessage', () => {
  for (const [name, model] of Object.entries(SAMPLE_MODELS)) {
    it(`renders ${name}`, () => {
      const doc = renderJiraMessage(model, OPTIONS);
      expect(doc).toMatchObject({ version: 1, type: 'doc' });
      for (const n of nodes(doc)) if (n.type === 'text') expect(n.text).not.toBe('');
      expect(plainText(doc)).toMatchSnapshot();
    });
  }

  it('the outcome mentions a Jira requester with a mention node, and carries the agent’s words', () => {
    const run = sampleRun('SUCCEEDED', {
      requester: { platform: 'jira', id: '557058:alice', name: 'Alice' },
      agentMessage: 'Fixed **it**.',
      usage: { costUsd: 1.24 },
    });
    const doc: AdfDoc = renderJiraMessage({ type: 'run_outcome', run }, OPTIONS);
    const first = doc.content[0] as Extract<AdfBlock, { type: 'paragraph' }>;
    expect(first.content[0]).toEqual({
      type: 'mention',
      attrs: { id: '557058:alice', text: '@Alice' },
    });
    const words = plainText(doc);
    expect(words).toContain('Run succeeded in 4m 12s');
    expect(words).toContain('Fixed it.');
    expect(words).toContain('octo-org/widgets#9');
    expect(words).toContain('Used about $1.24');
  });

  it('the status comment names no one with a mention node, and the title stays text', () => {
    const run = sampleRun('INPROGRESS', {
      requester: { platform: 'jira', id: '557058:alice', name: 'Alice' },
    });
    const doc = renderJiraMessage({ type: 'run_status', run }, OPTIONS);
    expect(nodes(doc).some((n) => n.type === 'mention')).toBe(false);
    expect(plainText(doc)).toContain('Fix the *flaky* parser test <script>');
    expect(plainText(doc)).toContain('@agent-relay cancel');
  });
});
