/**
 * Split a Markdown body into comments that fit GitHub's limit (65,536 characters) without
 * breaking code blocks: a fence open at a split is closed at the end of one part and
 * reopened, with the same info string, at the start of the next.
 */

/** GitHub rejects comment bodies longer than this (422 "Body is too long"). */
export const GITHUB_COMMENT_LIMIT = 65_536;

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

interface OpenFence {
  /** The fence characters as written (```` ``` ````, `~~~~`, …). */
  marker: string;
  /** The opening line, reused to reopen the block in the next part. */
  line: string;
}

/** The fence state after `line`, given the state before it (CommonMark closing rules). */
function nextFence(open: OpenFence | undefined, line: string): OpenFence | undefined {
  const m = FENCE.exec(line);
  if (!m) return open;
  const marker = m[1] ?? '';
  const rest = m[2] ?? '';
  if (open === undefined) {
    // A backtick fence's info string may not contain backticks.
    if (marker.startsWith('`') && rest.includes('`')) return undefined;
    return { marker, line };
  }
  const closes =
    marker[0] === open.marker[0] && marker.length >= open.marker.length && rest.trim() === '';
  return closes ? undefined : open;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * Where to cut a line that cannot fit: at most `n`, but not inside a surrogate pair, right
 * after an escaping backslash, or inside an HTML entity (`&lt;`), so neither half turns
 * escaped text into markup. (Renderers keep lines short; this is the last resort.)
 */
function safeCut(line: string, n: number): number {
  if (n >= line.length) return n;
  let cut = n;
  const entity = /&[#A-Za-z0-9]{0,10}$/.exec(line.slice(Math.max(0, cut - 11), cut));
  if (entity && cut - entity[0].length > 0) cut -= entity[0].length;
  let slashes = 0;
  while (slashes < cut && line[cut - 1 - slashes] === '\\') slashes++;
  if (slashes % 2 === 1 && cut > 1) cut -= 1;
  if (cut > 1 && isHighSurrogate(line.charCodeAt(cut - 1))) cut -= 1;
  return Math.max(1, cut);
}

export interface SplitOptions {
  /** Largest part, in UTF-16 code units (never more than GitHub counts). */
  limit?: number;
  /** Appended to every part but the last, e.g. "(continued below)". */
  continuedNote?: string;
}

/**
 * Split `body` into parts of at most `limit` characters. Parts break between lines where
 * possible (a line longer than a part is cut); every part closes the fences it opened and
 * the next part reopens them. A body within the limit comes back unchanged.
 */
export function splitComment(body: string, options: SplitOptions = {}): string[] {
  const limit = options.limit ?? GITHUB_COMMENT_LIMIT;
  if (body.length <= limit) return [body];
  const note = options.continuedNote === undefined ? '' : `\n${options.continuedNote}`;
  if (limit < 64 + note.length) throw new RangeError('comment limit too small to split into');

  const parts: string[] = [];
  let lines: string[] = [];
  let size = 0;
  /** The fence open after `lines`. */
  let fence: OpenFence | undefined;
  /** The part holds nothing but a reopened fence. */
  let fresh = true;

  const closeCost = (f: OpenFence | undefined): number => (f ? f.marker.length + 1 : 0);
  const room = (after: OpenFence | undefined): number =>
    limit - size - (lines.length > 0 ? 1 : 0) - closeCost(after) - note.length;
  const add = (line: string): void => {
    size += (lines.length > 0 ? 1 : 0) + line.length;
    lines.push(line);
    fresh = false;
  };
  const flush = (): void => {
    parts.push([...lines, ...(fence ? [fence.marker] : [])].join('\n') + note);
    lines = fence ? [fence.line] : [];
    size = fence ? fence.line.length : 0;
    fresh = true;
  };

  for (const line of body.split('\n')) {
    const after = nextFence(fence, line);
    if (line.length > room(after) && !fresh) flush();
    if (line.length <= room(after)) {
      add(line);
      fence = after;
      continue;
    }
    // Longer than a whole part: cut it into pieces (the fence state is the line's own).
    let rest = line;
    while (rest.length > 0) {
      const n = safeCut(rest, Math.min(room(fence), rest.length));
      add(rest.slice(0, n));
      rest = rest.slice(n);
      if (rest.length > 0) flush();
    }
    fence = after;
  }
  if (!fresh || parts.length === 0) parts.push(lines.join('\n'));
  return parts;
}
