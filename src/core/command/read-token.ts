/**
 * The tokenizer of the command grammar: reads one token at a time from a position, so that
 * whatever follows the options keeps its original text (newlines, code, spacing).
 *
 * Tokens: `key=value` (value bare or quoted with "…", '…', “…” or ‘…’), a bracket group
 * `[key=value, key="v w"]`, a plain word, or the end. A `[` starts a group only when a
 * `key=` follows it, so a prompt like `[WIP] fix it` stays prompt text.
 */
import type { ParseErrorCode } from './command.js';

export interface PairToken {
  kind: 'pair';
  /** Lower-cased key. */
  key: string;
  value: string;
  /** The value was written in quotes (so `name="-"` is the text "-", not a keyword). */
  quoted: boolean;
  start: number;
  end: number;
}
export type Token =
  | PairToken
  | { kind: 'group'; pairs: PairToken[]; start: number; end: number }
  | { kind: 'word'; text: string; start: number; end: number }
  | { kind: 'end'; start: number }
  | { kind: 'error'; code: ParseErrorCode; message: string };

/** Opening quote -> closing quote. */
export const QUOTE_PAIRS: Readonly<Record<string, string>> = {
  '"': '"',
  "'": "'",
  '\u201c': '\u201d',
  '\u2018': '\u2019',
};

const PAIR_START = /([A-Za-z][A-Za-z0-9_-]*)=/y;
const GROUP_START = /\[\s*[A-Za-z][A-Za-z0-9_-]*=/y;
const SPACE = /\s/;

function isSpace(ch: string | undefined): boolean {
  return ch !== undefined && SPACE.test(ch);
}

function skipSpace(s: string, i: number): number {
  let p = i;
  while (p < s.length && isSpace(s[p])) p++;
  return p;
}

function matchAt(re: RegExp, s: string, i: number): RegExpExecArray | null {
  re.lastIndex = i;
  return re.exec(s);
}

function isValueEnd(ch: string | undefined, inGroup: boolean): boolean {
  return ch === undefined || isSpace(ch) || (inGroup && (ch === ',' || ch === ']'));
}

function readPair(s: string, i: number, inGroup: boolean): Token | undefined {
  const m = matchAt(PAIR_START, s, i);
  if (!m) return undefined;
  const key = (m[1] ?? '').toLowerCase();
  const j = i + m[0].length;
  const open = s[j];
  const close = open === undefined ? undefined : QUOTE_PAIRS[open];
  if (close !== undefined) {
    const k = s.indexOf(close, j + 1);
    if (k < 0) {
      return {
        kind: 'error',
        code: 'unbalanced_quote',
        message: `the value of ${key} has no closing quote`,
      };
    }
    if (!isValueEnd(s[k + 1], inGroup)) {
      return {
        kind: 'error',
        code: 'malformed_options',
        message: `unexpected text right after the quoted value of ${key}`,
      };
    }
    return { kind: 'pair', key, value: s.slice(j + 1, k), quoted: true, start: i, end: k + 1 };
  }
  let p = j;
  while (!isValueEnd(s[p], inGroup)) p++;
  return { kind: 'pair', key, value: s.slice(j, p), quoted: false, start: i, end: p };
}

function unbalancedBracket(): Token {
  return {
    kind: 'error',
    code: 'unbalanced_bracket',
    message: 'an option group [ … has no closing ]',
  };
}

function readGroup(s: string, start: number): Token {
  const pairs: PairToken[] = [];
  let p = start + 1;
  for (;;) {
    while (p < s.length && (isSpace(s[p]) || s[p] === ',')) p++;
    if (p >= s.length) return unbalancedBracket();
    if (s[p] === ']') return { kind: 'group', pairs, start, end: p + 1 };
    const pair = readPair(s, p, true);
    if (pair === undefined && !s.includes(']', p)) return unbalancedBracket();
    if (pair === undefined) {
      return {
        kind: 'error',
        code: 'malformed_options',
        message: 'inside [ … ] every item must be key=value, separated by commas',
      };
    }
    if (pair.kind !== 'pair') return pair;
    pairs.push(pair);
    p = pair.end;
  }
}

/** Read the token that starts at or after `i` (leading whitespace is skipped). */
export function readToken(s: string, i: number): Token {
  const p = skipSpace(s, i);
  if (p >= s.length) return { kind: 'end', start: p };
  if (s[p] === '[' && matchAt(GROUP_START, s, p)) return readGroup(s, p);
  const pair = readPair(s, p, false);
  if (pair) return pair;
  let q = p;
  while (q < s.length && !isSpace(s[q])) q++;
  return { kind: 'word', text: s.slice(p, q), start: p, end: q };
}

/**
 * A prompt written entirely in one pair of quotes is unwrapped: quoting is how a prompt
 * escapes the grammar (`"status of the build is red"`, `"x=1 is wrong"`).
 */
export function unwrapQuoted(text: string): string {
  const t = text.trim();
  const open = t[0];
  const close = open === undefined ? undefined : QUOTE_PAIRS[open];
  if (close === undefined || t.length < 2) return t;
  return t.indexOf(close, 1) === t.length - 1 ? t.slice(1, -1).trim() : t;
}
