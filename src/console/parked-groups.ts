/**
 * Parked notifications grouped by cause and place: one GitHub issue the bot cannot write to,
 * or one Slack channel it was removed from, parks every notification meant for it, and an
 * operator decides about them together. The place is the issue or pull request (GitHub) or
 * the channel (Slack); the cause is the error with its numbers left out (ids, counts, times).
 */
import type { OutboxItem } from '../core/ports/index.js';
import { decodeThreadKey } from '../core/thread-key.js';
import { placeOf, type Place } from './places.js';

export interface ParkedGroup {
  /** Stable for one cause and place. */
  key: string;
  /** The error as the newest item of the group says it. */
  cause: string;
  place: Place;
  /** Newest first. */
  items: OutboxItem[];
}

function placeKeyOf(threadKey: string, githubWebUrl: string): { key: string; place: Place } {
  const address = decodeThreadKey(threadKey);
  if (address?.platform === 'slack') {
    const key = `slack:${address.team}:${address.channel}`;
    return {
      key,
      place: { ...placeOf(`${key}:`, githubWebUrl), label: `Slack ${address.channel}` },
    };
  }
  if (address?.platform === 'github') {
    const key = `github:${address.owner}/${address.repo}#${address.number}`;
    return { key, place: placeOf(key, githubWebUrl) };
  }
  return { key: threadKey, place: { label: threadKey } };
}

/** The error without what differs between two notifications refused for the same reason. */
export function causeKeyOf(error: string | undefined): string {
  return (error ?? 'no error recorded')
    .replace(/\d+/g, '#')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** Groups, the largest first (then the one parked most recently). */
export function groupParked(items: readonly OutboxItem[], githubWebUrl: string): ParkedGroup[] {
  const groups = new Map<string, ParkedGroup>();
  for (const item of [...items].sort((a, b) => b.id - a.id)) {
    const { key: placeKey, place } = placeKeyOf(item.threadKey, githubWebUrl);
    const key = `${placeKey} ${causeKeyOf(item.lastError)}`;
    const group = groups.get(key);
    if (group) group.items.push(item);
    else
      groups.set(key, { key, cause: item.lastError ?? 'no error recorded', place, items: [item] });
  }
  return [...groups.values()].sort(
    (a, b) => b.items.length - a.items.length || b.items[0]!.id - a.items[0]!.id,
  );
}
