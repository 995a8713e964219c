/**
 * Is a comment addressed to the bot, and which words are for it? (GitHub comments and bodies,
 * and any text the ingress did not already mark as addressed.)
 *
 * Addressed: a mention of `@<handle>` (case-insensitive; not `@handle-x`, `@handle/team`,
 * `x@handle.com`) or a line starting with the command word (`/agent`), OUTSIDE fenced code
 * blocks (``` and ~~~), indented code blocks, inline code spans, HTML comments and block
 * quotes (`> …` plus their lazy continuation lines up to the next blank line). The first
 * such place wins; the words are the rest of its line plus all following lines, untouched.
 *
 * Conservative by design: a line this scanner cannot place (e.g. an indented list
 * continuation after a blank line, which looks like indented code) never triggers.
 */
import { escapeRegExp } from '../text.js';

export interface AddressedWords {
  words: string;
  /**
   * True when the text is nothing but the address (`@agent-relay` alone, or a `/agent`
   * line): empty words then mean "show help". A mention in passing (`thanks @agent-relay!`)
   * with no words is not explicit.
   */
  explicit: boolean;
}

interface Fence {
  char: string;
  length: number;
}

// Fences and quotes are recognised at any indentation and after a list marker (list items
// nest them); being generous here only ever hides more text.
const FENCE_OPEN = /^\s*(?:(?:[-*+]|\d{1,9}[.)])\s+)?(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^\s*(`{3,}|~{3,})\s*$/;
const QUOTE = /^\s*(?:(?:[-*+]|\d{1,9}[.)])\s+)?(?:>|&gt;)/;
const INDENTED = /^(?: {4}| {0,3}\t)/;
const BLANK = /^\s*$/;
const HTML_COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
const LINE_BREAK = /\r\n|\r|\n/;
/** Punctuation glued to the mention (`@agent-relay:`, `thanks @agent-relay!`). */
const TRAILING_PUNCTUATION = /^[,:;.!?)\]]+(?=\s|$)/;

/**
 * Hide text (code spans, HTML comments) while keeping offsets aligned: every character but a
 * line break becomes NUL, which is neither space (no fake indentation) nor a word character.
 */
function blankOut(s: string): string {
  return s.replace(/[^\r\n]/g, '\u0000');
}

/**
 * Blank out inline code spans: a run of N backticks up to the next run of exactly N. Linear:
 * runs are indexed by length, and each length keeps a cursor.
 */
export function maskInlineCode(line: string): string {
  const runs: { start: number; length: number }[] = [];
  for (const m of line.matchAll(/`+/g)) runs.push({ start: m.index, length: m[0].length });
  if (runs.length < 2) return line;
  const byLength = new Map<number, number[]>();
  runs.forEach((run, k) => {
    const list = byLength.get(run.length);
    if (list) list.push(k);
    else byLength.set(run.length, [k]);
  });
  const cursor = new Map<number, number>();
  let out = '';
  let done = 0;
  for (let k = 0; k < runs.length; k++) {
    const run = runs[k];
    if (run === undefined || run.start < done) continue;
    const same = byLength.get(run.length) ?? [];
    let c = cursor.get(run.length) ?? 0;
    while (c < same.length && (same[c] ?? Infinity) <= k) c++;
    cursor.set(run.length, c);
    const closer = runs[same[c] ?? -1];
    if (closer === undefined) continue;
    const end = closer.start + closer.length;
    out += line.slice(done, run.start) + blankOut(line.slice(run.start, end));
    done = end;
    cursor.set(run.length, c + 1);
  }
  return out + line.slice(done);
}

function openFence(line: string): Fence | undefined {
  const m = FENCE_OPEN.exec(line);
  const marks = m?.[1];
  if (!m || marks === undefined) return undefined;
  const char = marks[0] ?? '`';
  if (char === '`' && (m[2] ?? '').includes('`')) return undefined;
  return { char, length: marks.length };
}

function closesFence(line: string, fence: Fence): boolean {
  const marks = FENCE_CLOSE.exec(line)?.[1];
  return marks !== undefined && marks[0] === fence.char && marks.length >= fence.length;
}

function addressPattern(botHandle: string, commandWord: string) {
  const handle = botHandle.trim().replace(/^@/, '');
  const h = escapeRegExp(handle);
  const mention =
    handle === ''
      ? undefined
      : new RegExp(
          `<@${h}(?:\\|[^>]{0,100})?>|(?<![A-Za-z0-9_.+\\-@/\`\\\\])@${h}(?:\\[bot\\])?(?![A-Za-z0-9_/-]|\\.[A-Za-z0-9])`,
          'i',
        );
  const word = commandWord.trim();
  const command = word === '' ? undefined : new RegExp(`^\\s*${escapeRegExp(word)}(?=\\s|$)`, 'i');
  return { mention, command };
}

export function findAddressedWords(
  text: string,
  botHandle: string,
  commandWord: string,
): AddressedWords | undefined {
  const { mention, command } = addressPattern(botHandle, commandWord);
  const lines = text.split(LINE_BREAK);
  const visibleLines = text.replace(HTML_COMMENT, blankOut).split(LINE_BREAK);
  let fence: Fence | undefined;
  let inQuote = false;
  let prevBlank = true;
  let prevIndentedCode = false;
  let sawContent = false;

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const visible = visibleLines[i] ?? '';
    const blank = BLANK.test(visible);
    const wasBlank = prevBlank;
    prevBlank = blank;
    if (fence) {
      if (closesFence(visible, fence)) fence = undefined;
      sawContent = true;
      continue;
    }
    if (blank) {
      inQuote = false;
      continue;
    }
    const codeLine: boolean = INDENTED.test(visible) && (wasBlank || prevIndentedCode);
    prevIndentedCode = codeLine;
    const opened = codeLine ? undefined : openFence(visible);
    if (codeLine || opened || QUOTE.test(visible) || inQuote) {
      fence = opened;
      inQuote = inQuote || QUOTE.test(visible);
      sawContent = true;
      continue;
    }
    const plain = maskInlineCode(visible);
    const rest = (end: number) =>
      [line.slice(end).replace(TRAILING_PUNCTUATION, ''), ...lines.slice(i + 1)].join('\n').trim();
    const commandMatch = command?.exec(plain);
    if (commandMatch) return { words: rest(commandMatch[0].length), explicit: true };
    const mentionMatch = mention?.exec(plain);
    if (mentionMatch) {
      const words = rest(mentionMatch.index + mentionMatch[0].length);
      const before = plain.slice(0, mentionMatch.index);
      return { words, explicit: !sawContent && BLANK.test(before) };
    }
    sawContent = true;
  }
  return undefined;
}
