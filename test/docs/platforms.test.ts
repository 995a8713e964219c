/**
 * docs/platforms.md's capability table says what the code declares: one column per platform of
 * the list, in its order, and one row per capability, each cell what that platform's
 * definition says.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NO_CAPABILITIES } from '../../src/core/ports/index.js';
import { PLATFORMS } from '../../src/service/platforms/list.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const page = readFileSync(resolve(ROOT, 'docs/platforms.md'), 'utf8');

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim());

function capabilityTable(): string[][] {
  const lines = page.split('\n');
  const start = lines.findIndex((l) => l.startsWith('| capability |'));
  expect(start, 'the capability table').toBeGreaterThan(-1);
  const rows: string[][] = [];
  for (const line of lines.slice(start)) {
    if (!line.startsWith('|')) break;
    rows.push(cells(line));
  }
  return rows;
}

describe('docs/platforms.md', () => {
  const [header = [], , ...rows] = capabilityTable();

  it('has one column per platform of the list, in its order', () => {
    const names = header.slice(2).map((n) => n.toLowerCase());
    expect(names).toEqual(PLATFORMS.map((p) => p.name));
  });

  it('has one row per capability, each cell as the platform declares it', () => {
    const keys = rows.map((r) => (r[0] ?? '').replace(/`/g, ''));
    expect(keys.sort()).toEqual(Object.keys(NO_CAPABILITIES).sort());
    for (const row of rows) {
      const key = (row[0] ?? '').replace(/`/g, '') as keyof typeof NO_CAPABILITIES;
      PLATFORMS.forEach((platform, i) => {
        const cell = row[2 + i];
        expect(cell, `${key} on ${platform.name}`).toBe(platform.capabilities[key] ? '✓' : '—');
      });
    }
  });
});
