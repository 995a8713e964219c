/**
 * The ports import one another without a cycle: each file in src/core/ports can be read on its
 * own, after the ones it names. (Type-only cycles compile, but they tie every port to every
 * other and hide which one is the base.)
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PORTS = resolve(dirname(fileURLToPath(import.meta.url)), '../../src/core/ports');

function importsOf(file: string): string[] {
  const text = readFileSync(join(PORTS, file), 'utf8');
  return [...text.matchAll(/from '\.\/([\w-]+)\.js'/g)].map((m) => `${m[1]}.ts`);
}

/** A cycle among the files, as a path, or undefined. */
function findCycle(files: string[], edges: (f: string) => string[]): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (f: string): string[] | undefined => {
    if (state.get(f) === 'done') return undefined;
    if (state.get(f) === 'open') return [...path.slice(path.indexOf(f)), f];
    state.set(f, 'open');
    path.push(f);
    for (const next of edges(f)) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(f, 'done');
    return undefined;
  };
  for (const f of files) {
    const cycle = visit(f);
    if (cycle) return cycle;
  }
  return undefined;
}

describe('core/ports', () => {
  it('has no import cycle (index.ts, which names them all, aside)', () => {
    const files = readdirSync(PORTS).filter((f) => f.endsWith('.ts') && f !== 'index.ts');
    expect(findCycle(files, importsOf)).toBeUndefined();
  });

  it('the check finds a cycle where there is one', () => {
    const edges: Record<string, string[]> = {
      'a.ts': ['b.ts'],
      'b.ts': ['c.ts'],
      'c.ts': ['a.ts'],
    };
    expect(findCycle(Object.keys(edges), (f) => edges[f] ?? [])).toEqual([
      'a.ts',
      'b.ts',
      'c.ts',
      'a.ts',
    ]);
  });
});
