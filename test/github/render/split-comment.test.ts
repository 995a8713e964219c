import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyOptions } from '../../helpers/property.js';
import { splitComment } from '../../../src/github/render/split-comment.js';

/** The fence left open at the end of `text` (CommonMark rules, simplified), if any. */
function openFence(text: string): string | undefined {
  let open: string | undefined;
  for (const line of text.split('\n')) {
    const m = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (!m) continue;
    const marker = m[1] ?? '';
    if (open === undefined) {
      if (!(marker.startsWith('`') && (m[2] ?? '').includes('`'))) open = marker;
    } else if (
      marker[0] === open[0] &&
      marker.length >= open.length &&
      (m[2] ?? '').trim() === ''
    ) {
      open = undefined;
    }
  }
  return open;
}

function fencesBalanced(part: string): boolean {
  return openFence(part) === undefined;
}

describe('splitComment', () => {
  it('returns a short body unchanged', () => {
    expect(splitComment('hello\n```\ncode\n```', { limit: 100 })).toEqual([
      'hello\n```\ncode\n```',
    ]);
  });

  it('closes a fence at a split and reopens it with its info string', () => {
    const code = Array.from({ length: 40 }, (_, i) => `const v${i} = ${i};`).join('\n');
    const body = `intro\n\n\`\`\`ts\n${code}\n\`\`\`\noutro`;
    const parts = splitComment(body, { limit: 200 });
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(200);
      expect(fencesBalanced(part)).toBe(true);
    }
    expect(parts[1]?.startsWith('```ts\n')).toBe(true);
    expect(parts.at(-1)?.endsWith('outro')).toBe(true);
  });

  it('cuts a single line longer than a part', () => {
    const parts = splitComment(`a\n${'y'.repeat(450)}\nb`, { limit: 100 });
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(100);
    expect(parts.join('').replace(/\n/g, '')).toBe(`a${'y'.repeat(450)}b`);
  });

  it('a cut never separates a backslash from what it escapes, nor splits an entity', () => {
    const line = '\\[x\\]&lt;'.repeat(60);
    for (const limit of [64, 65, 66, 67, 68, 69, 70, 71]) {
      for (const part of splitComment(line, { limit })) {
        expect(part).not.toMatch(/^[[\]]/);
        expect(part).not.toMatch(/(^|[^\\])(\\\\)*\\$/);
        expect(part).not.toMatch(/^(lt;|t;|;)/);
        expect(part).not.toMatch(/&(l|lt)?$/);
      }
    }
  });

  it('never cuts a surrogate pair in half', () => {
    const parts = splitComment('😀'.repeat(200), { limit: 101 });
    for (const part of parts) expect(part).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/);
  });

  it('property: parts fit, fences balance, text survives', () => {
    const line = fc.oneof(
      fc.constantFrom('```', '```js', '~~~', '````', 'text', '', '> quote', '# h'),
      fc.string({ maxLength: 120 }).map((s) => s.replace(/\n/g, ' ')),
    );
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 80 }),
        fc.integer({ min: 80, max: 400 }),
        (lines, limit) => {
          const open = openFence(lines.join('\n'));
          const body = (open === undefined ? lines : [...lines, open]).join('\n');
          const parts = splitComment(body, { limit, continuedNote: '(more)' });
          for (const part of parts) {
            expect(part.length).toBeLessThanOrEqual(limit);
            expect(fencesBalanced(part)).toBe(true);
          }
          const words = (s: string) => s.replace(/[`~\s]|\(more\)/g, '');
          expect(words(parts.join(''))).toBe(words(body));
        },
      ),
      propertyOptions(300),
    );
  });
});
