/**
 * Parameters the SQLite query planner does not look into. SQLite marks a statement to be
 * prepared again on its next run whenever a parameter whose value could change the plan is
 * bound: the right-hand side of an equality (the planner estimates fewer rows for 0 and 1)
 * and a LIMIT or OFFSET. better-sqlite3 binds every parameter on every run, so such a
 * statement is parsed and planned again each time it runs, which for the queues' claims costs
 * several times what running them does (docs/decisions/sqlite-opaque-parameters.md). Written
 * `+?` (unary plus: the same value, of any type, with no affinity, like a bare `?`), the
 * parameter is an expression the planner does not evaluate, so the plan is made once, as it
 * would be for a value it had never seen. Indexes are used all the same: the plus is on the
 * value's side, never the column's.
 *
 * Only placeholders after `=` (and `==`, `!=`, `<=`, `>=`), IS, LIMIT and OFFSET are rewritten;
 * quoted strings and identifiers and comments are left as they are.
 */
export function opaqueParameters(sqlText: string): string {
  let out = '';
  let i = 0;
  while (i < sqlText.length) {
    const c = sqlText[i]!;
    if (c === "'" || c === '"' || c === '`') {
      const end = closingQuote(sqlText, i, c);
      out += sqlText.slice(i, end);
      i = end;
      continue;
    }
    if (c === '-' && sqlText[i + 1] === '-') {
      const end = sqlText.indexOf('\n', i);
      const stop = end === -1 ? sqlText.length : end;
      out += sqlText.slice(i, stop);
      i = stop;
      continue;
    }
    if (c === '/' && sqlText[i + 1] === '*') {
      const end = sqlText.indexOf('*/', i + 2);
      const stop = end === -1 ? sqlText.length : end + 2;
      out += sqlText.slice(i, stop);
      i = stop;
      continue;
    }
    if (c === '?' && !/[0-9]/.test(sqlText[i + 1] ?? '') && planLooksAt(out)) {
      out += '+?';
      i += 1;
      continue;
    }
    out += c;
    i += 1;
  }
  return out;
}

/** Whether the text before a placeholder makes it an equality's or IS's value, a LIMIT or an OFFSET. */
function planLooksAt(before: string): boolean {
  let end = before.length;
  while (end > 0 && /\s/.test(before[end - 1]!)) end -= 1;
  if (before[end - 1] === '=') return true;
  let start = end;
  while (start > 0 && /[a-z0-9_$]/i.test(before[start - 1]!)) start -= 1;
  const word = before.slice(start, end).toLowerCase();
  return word === 'is' || word === 'limit' || word === 'offset';
}

/** Where a quoted run that opens at `start` ends (a doubled quote is part of it). */
function closingQuote(text: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < text.length) {
    if (text[i] === quote) {
      if (text[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i += 1;
  }
  return text.length;
}
