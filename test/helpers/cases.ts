/**
 * A table of cases for a function of one argument: one test a row, named by the row, checking
 * that `fn(given)` is `want` (`toBe`).
 */
import { expect, it } from 'vitest';

export function eachMapsTo<In, Out>(fn: (given: In) => Out, cases: [In, Out][]): void {
  it.each(cases)('%j -> %j', (given, want) => {
    expect(fn(given)).toBe(want);
  });
}
