/**
 * "Said once": what a thread's messages say twice. Two messages repeat each other when they
 * share a run of words (beyond the run's title and links), name the same run id, or both
 * carry buttons. Used over whole conversations driven end to end against the fakes.
 */

export interface ThreadMessage {
  /** Who/what it is, for the failure message. */
  label: string;
  /** The text a person reads (Slack: every text of the blocks; GitHub: the comment body). */
  text: string;
  hasButtons?: boolean;
}

/** Words in a row two messages may share before it counts as a repetition. */
export const SHARED_WORDS = 5;

/** The words of a text, with titles and links cut out: a cut is a word no other message has. */
function words(text: string, titles: readonly string[], cut: string): string[] {
  let t = text
    .replace(/<(https?:[^|>]+)\|([^>]*)>/g, ` ${cut} `) // Slack link: label and address
    .replace(/\[([^\]]*)\]\((https?:[^)]*)\)/g, ` ${cut} `) // Markdown link
    .replace(/https?:\/\/\S+/g, ` ${cut} `)
    .replace(/<!--[\s\S]*?-->/g, ' '); // hidden markers
  for (const title of titles) {
    for (const variant of [title, title.replace(/[*_~`<>&[\]]/g, (c) => `\\${c}`)]) {
      if (variant.trim() !== '') t = t.split(variant).join(` ${cut} `);
    }
  }
  return t.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
}

function shingles(ws: string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i + SHARED_WORDS <= ws.length; i++) {
    out.add(ws.slice(i, i + SHARED_WORDS).join(' '));
  }
  return out;
}

/**
 * Every repetition between two messages of `thread`, as readable lines ([] when each thing
 * is said once). `runIds` are details that belong to one message only.
 */
export function repetitions(
  thread: readonly ThreadMessage[],
  opts: { titles: readonly string[]; runIds: readonly string[] },
): string[] {
  const found: string[] = [];
  const sets = thread.map((m, i) => shingles(words(m.text, opts.titles, `cut${i}x`)));
  for (let a = 0; a < thread.length; a++) {
    for (let b = a + 1; b < thread.length; b++) {
      const pair = `${thread[a]!.label} / ${thread[b]!.label}`;
      for (const s of sets[a]!) if (sets[b]!.has(s)) found.push(`${pair}: both say "${s}"`);
      for (const id of opts.runIds) {
        if (id !== '' && thread[a]!.text.includes(id) && thread[b]!.text.includes(id)) {
          found.push(`${pair}: both show run id ${id}`);
        }
      }
      if (thread[a]!.hasButtons && thread[b]!.hasButtons) found.push(`${pair}: both have buttons`);
    }
  }
  return found;
}

/** Every text a Block Kit message shows (sections, fields, context, headers, buttons). */
export function blockText(blocks: unknown): string {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o.text === 'string' && (o.type === 'mrkdwn' || o.type === 'plain_text')) {
        out.push(o.text);
      }
      for (const [k, child] of Object.entries(o)) if (k !== 'confirm') walk(child);
    }
  };
  walk(blocks);
  return out.join('\n');
}

export function hasActions(blocks: unknown): boolean {
  return JSON.stringify(blocks ?? []).includes('"type":"actions"');
}
