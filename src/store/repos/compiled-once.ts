/**
 * A statement built and compiled once, then run with new values. Kysely builds an immutable
 * query tree and compiles it to SQL on every call, which for a small statement run on every
 * request or claim costs about as much as SQLite running it. The
 * statement is compiled with a unique placeholder object per named value, so where each value
 * goes among the compiled parameters (once or more) is known whatever order the dialect's
 * compiler chose; the other parameters are the statement's constants and stay as compiled.
 * Kept for its measured saving (docs/decisions/speed-mechanisms.md).
 */
import { createQueryId } from 'kysely';
import type { CompiledQuery } from 'kysely';

/** Builds the statement from one value per name (the placeholders when compiling). */
export type BuildStatement<K extends string> = (values: Readonly<Record<K, unknown>>) => {
  compile(): CompiledQuery;
};

/** Returns a function giving the compiled statement with these values as its parameters. */
export function compiledOnce<K extends string>(
  names: readonly K[],
  build: BuildStatement<K>,
): (values: Readonly<Record<K, unknown>>) => CompiledQuery {
  /** Per compiled parameter: the name whose value goes there, or the constant compiled in. */
  type Slot = { name: K } | { constant: unknown };
  let template: { query: CompiledQuery; slots: readonly Slot[] } | undefined;

  function compileTemplate(): { query: CompiledQuery; slots: readonly Slot[] } {
    const placeholders = new Map<unknown, K>(names.map((name) => [{ placeholder: name }, name]));
    const byName = Object.fromEntries([...placeholders].map(([p, name]) => [name, p]));
    const query = build(byName as Record<K, unknown>).compile();
    const slots = query.parameters.map((p): Slot => {
      const name = placeholders.get(p);
      return name === undefined ? { constant: p } : { name };
    });
    const used = new Set(slots.flatMap((s) => ('name' in s ? [s.name] : [])));
    const unused = names.filter((name) => !used.has(name));
    if (unused.length > 0) throw new Error(`compiledOnce: never used: ${unused.join(', ')}`);
    return { query, slots };
  }

  return (values) => {
    template ??= compileTemplate();
    const { query, slots } = template;
    return {
      ...query,
      queryId: createQueryId(), // each run is its own query (plugins key their state by it)
      parameters: slots.map((s) => ('name' in s ? values[s.name] : s.constant)),
    };
  };
}
