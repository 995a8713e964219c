/**
 * A full `npm run bench` rewrites the generated section of docs/performance.md: the page must
 * hold the two markers, once each and in order, or the run would leave the figures stale.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BEGIN, END, updateMarkedDocs } from '../../bench/lib/update-docs.js';

const page = readFileSync(new URL('../../docs/performance.md', import.meta.url), 'utf8');
const count = (needle: string) => page.split(needle).length - 1;

describe('docs/performance.md, the page the bench writes its figures into', () => {
  it('has the generated section once, between its two markers', () => {
    expect(count(BEGIN)).toBe(1);
    expect(count(END)).toBe(1);
    expect(page.indexOf(BEGIN)).toBeLessThan(page.indexOf(END));
  });

  it('gets its generated section replaced and keeps the prose around it', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'perf-doc-')), 'performance.md');
    writeFileSync(file, page);
    expect(updateMarkedDocs([file], '### New figures\n\n| a |\n| --- |\n| 1 |')).toEqual([file]);
    const next = readFileSync(file, 'utf8');
    expect(next).toContain(`${BEGIN}\n\n### New figures\n\n| a |\n| --- |\n| 1 |\n\n${END}`);
    expect(next.slice(0, next.indexOf(BEGIN))).toBe(page.slice(0, page.indexOf(BEGIN)));
    expect(next.slice(next.indexOf(END))).toBe(page.slice(page.indexOf(END)));
  });
});
