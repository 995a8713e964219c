/**
 * How the gallery's tests read a picture's page: its visible text, and what in it would not
 * read like a real team's day (an emulator marker, a run that took 0s, two runs under one
 * short id).
 */
import { shortRunId } from '../../src/core/message/short-run-id.js';
import { PROMPT_MARKERS } from '../../src/emulator/model/state-machine.js';

/** What a reader sees of a page: its text, without markup, styles, scripts or comments. */
export function visibleText(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(style|script|title)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

export function markersIn(text: string): string[] {
  const lower = text.toLowerCase();
  return PROMPT_MARKERS.filter((m) => lower.includes(m));
}

/** A run that "took 0s": how a duration reads when the runs were not realistic. */
export function zeroDurations(text: string): string[] {
  return [...text.matchAll(/(?:\b(?:after|in|for)|·) 0s\b/g)].map((m) => m[0]);
}

const RUN_ID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;

/** Short ids that name more than one of the run ids a text shows. */
export function sharedShortIds(text: string): string[] {
  const byShort = new Map<string, Set<string>>();
  for (const [id] of text.matchAll(RUN_ID)) {
    const short = shortRunId(id);
    byShort.set(short, (byShort.get(short) ?? new Set()).add(id));
  }
  return [...byShort].filter(([, ids]) => ids.size > 1).map(([short]) => short);
}
