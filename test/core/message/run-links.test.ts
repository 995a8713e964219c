import { describe, expect, it } from 'vitest';
import type { Artifact } from '../../../src/core/run.js';
import {
  artifactLink,
  pullRequestLabel,
  runLinks,
  safeUrl,
} from '../../../src/core/message/run-links.js';
import type { LinkView } from '../../../src/core/message/message-model.js';

const artifact = (artifact_type: string, data: Record<string, unknown>): Artifact => ({
  artifact_type,
  created_at: '2025-01-01T00:00:00Z',
  data,
});

describe('artifactLink', () => {
  it.each<[string, Artifact, LinkView | undefined]>([
    [
      'PR with a GitHub url',
      artifact('PULL_REQUEST', { url: 'https://github.com/o/r/pull/7', branch: 'fix/typo' }),
      {
        kind: 'pull_request',
        label: 'PR: o/r#7',
        url: 'https://github.com/o/r/pull/7',
        branch: 'fix/typo',
      },
    ],
    [
      'PR on GHES with a trailing path',
      artifact('PULL_REQUEST', { url: 'https://ghe.example/team/app/pull/12/files' }),
      {
        kind: 'pull_request',
        label: 'PR: team/app#12',
        url: 'https://ghe.example/team/app/pull/12/files',
      },
    ],
    [
      'PR with an unusual url',
      artifact('PULL_REQUEST', { url: 'https://gitlab.example/o/r/-/merge_requests/3' }),
      {
        kind: 'pull_request',
        label: 'https://gitlab.example/o/r/-/merge_requests/3',
        url: 'https://gitlab.example/o/r/-/merge_requests/3',
      },
    ],
    [
      'PR without url',
      artifact('PULL_REQUEST', { branch: 'fix/typo' }),
      { kind: 'pull_request', label: 'Pull request (fix/typo)' },
    ],
    [
      'PR with a javascript: url',
      artifact('PULL_REQUEST', { url: 'javascript:alert(1)' }),
      { kind: 'pull_request', label: 'Pull request' },
    ],
    [
      'plan with title and url',
      artifact('PLAN', { document_uid: 'd1', title: 'Migration', url: 'https://x.y/plan/d1' }),
      { kind: 'plan', label: 'Plan: Migration', url: 'https://x.y/plan/d1' },
    ],
    ['plan bare', artifact('PLAN', { document_uid: 'd1' }), { kind: 'plan', label: 'Plan' }],
    [
      'external reference with title',
      artifact('EXTERNAL_REFERENCE', {
        url: 'https://linear.app/x/1',
        reference_type: 'linear',
        title: 'LIN-1',
      }),
      { kind: 'reference', label: 'LIN-1', url: 'https://linear.app/x/1' },
    ],
    [
      'external reference without title',
      artifact('EXTERNAL_REFERENCE', { url: 'https://linear.app/x/1', reference_type: 'linear' }),
      { kind: 'reference', label: 'https://linear.app/x/1', url: 'https://linear.app/x/1' },
    ],
    [
      'file',
      artifact('FILE', {
        artifact_uid: 'a1',
        filename: 'report.md',
        filepath: 'out/report.md',
        mime_type: 'text/markdown',
      }),
      { kind: 'file', label: 'report.md' },
    ],
    [
      'file with only a path',
      artifact('FILE', { filepath: 'out/x.txt' }),
      { kind: 'file', label: 'out/x.txt' },
    ],
    [
      'screenshot',
      artifact('SCREENSHOT', { artifact_uid: 's1', mime_type: 'image/png' }),
      { kind: 'screenshot', label: 'Screenshot' },
    ],
    [
      'unknown type with url',
      artifact('VIDEO', { url: 'https://x.y/v', title: 'Demo' }),
      { kind: 'reference', label: 'Demo', url: 'https://x.y/v' },
    ],
    ['unknown type without url', artifact('VIDEO', { uid: 'v' }), undefined],
  ])('%s', (_name, input, expected) => {
    expect(artifactLink(input)).toEqual(expected);
  });
});

describe('helpers', () => {
  it.each([
    ['https://x.y', 'https://x.y'],
    ['http://x.y/a?b', 'http://x.y/a?b'],
    ['javascript:alert(1)', undefined],
    ['/relative', undefined],
    ['not a url', undefined],
    [42, undefined],
    [`https://x.y/${'a'.repeat(3000)}`, undefined],
  ])('safeUrl(%j)', (input, expected) => {
    expect(safeUrl(input)).toBe(expected);
  });

  it('labels pull requests only from PR urls', () => {
    expect(pullRequestLabel('https://github.com/o/r/pull/7#discussion')).toBe('PR: o/r#7');
    expect(pullRequestLabel('https://github.com/o/r/issues/7')).toBeUndefined();
  });

  it('lists the session first, then artifacts in order, skipping unknown ones', () => {
    const links = runLinks('https://s.example/1', [
      artifact('FILE', { filename: 'a' }),
      artifact('MYSTERY', {}),
      artifact('PULL_REQUEST', { url: 'https://github.com/o/r/pull/1' }),
    ]);
    expect(links.map((l) => l.kind)).toEqual(['session', 'file', 'pull_request']);
    expect(links[0]).toEqual({ kind: 'session', label: 'Session', url: 'https://s.example/1' });
    expect(runLinks(undefined, [])).toEqual([]);
  });
});
