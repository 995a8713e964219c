/**
 * Naming an environment or a model (docs/usage.md, "Naming an environment or a model"): by its
 * id, its exact name, or a prefix that only one entry has: of the id or name first, else of
 * one of its words. Case does not matter, and spaces in a name may be typed as `-` (an option
 * value is one word). Pure: the caller brings
 * the catalogue.
 */

export interface Named {
  id: string;
  name: string;
}

export type NameLookup<T extends Named> =
  | { kind: 'found'; entry: T }
  | { kind: 'ambiguous'; candidates: T[] }
  | { kind: 'unknown'; close: T[] };

/** How many close names a reply lists at most. */
export const MAX_CLOSE_NAMES = 8;

/** Lower case, with runs of spaces and underscores as one `-`. */
export function nameKey(s: string): string {
  return s
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
}

/** The words of a name or id (split at spaces, `-`, `_`, `.` and `/`), lower case. */
function words(s: string): string[] {
  return s
    .toLowerCase()
    .split(/[\s\-_./]+/)
    .filter((w) => w !== '');
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
    }
    prev = row;
  }
  return prev[b.length]!;
}

/** The entries nearest to what was typed: containing it, or a few edits away; else all of them. */
function closeTo<T extends Named>(key: string, entries: readonly T[]): T[] {
  const scored = entries
    .map((entry) => {
      const keys = [nameKey(entry.id), nameKey(entry.name)].filter((k) => k !== '');
      const contains = keys.some((k) => k.includes(key) || key.includes(k));
      const distance = Math.min(...keys.map((k) => editDistance(key, k.slice(0, key.length + 2))));
      return { entry, score: contains ? 0 : distance };
    })
    .filter((s) => s.score <= Math.max(2, Math.floor(key.length / 3)))
    .sort((a, b) => a.score - b.score);
  const close = scored.length > 0 ? scored.map((s) => s.entry) : [...entries];
  return close.slice(0, MAX_CLOSE_NAMES);
}

export function lookupName<T extends Named>(given: string, entries: readonly T[]): NameLookup<T> {
  const exactId = entries.find((e) => e.id === given.trim());
  if (exactId) return { kind: 'found', entry: exactId };
  const key = nameKey(given);
  if (key === '') return { kind: 'unknown', close: entries.slice(0, MAX_CLOSE_NAMES) };
  const exact = entries.filter((e) => nameKey(e.id) === key || nameKey(e.name) === key);
  if (exact.length === 1) return { kind: 'found', entry: exact[0]! };
  if (exact.length > 1) return { kind: 'ambiguous', candidates: exact };
  const prefixed = entries.filter(
    (e) => nameKey(e.id).startsWith(key) || nameKey(e.name).startsWith(key),
  );
  if (prefixed.length === 1) return { kind: 'found', entry: prefixed[0]! };
  if (prefixed.length > 1) {
    return { kind: 'ambiguous', candidates: prefixed.slice(0, MAX_CLOSE_NAMES) };
  }
  // Then a word of the name or id: `sonnet` for "Claude Sonnet 4.6".
  const worded = entries.filter((e) =>
    [...words(e.id), ...words(e.name)].some((w) => w.startsWith(key)),
  );
  if (worded.length === 1) return { kind: 'found', entry: worded[0]! };
  if (worded.length > 1) {
    return { kind: 'ambiguous', candidates: worded.slice(0, MAX_CLOSE_NAMES) };
  }
  return { kind: 'unknown', close: closeTo(key, entries) };
}

/** `Web App (env_web)` for a reply; the id alone when it is the name. */
export function describeNamed(entry: Named): string {
  return entry.name === '' || entry.name === entry.id ? entry.id : `${entry.name} (${entry.id})`;
}
