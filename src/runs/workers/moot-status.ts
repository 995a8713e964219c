/**
 * Whether a status notification is moot: the one queued right behind it in its thread (and so
 * delivered next) is a status of the same message, which will show the newer state anyway. A
 * fast create's "Starting…" is followed within milliseconds by the run's first status, and state
 * changes pile up while the outbox is behind: each would otherwise cost a post or an edit nobody
 * reads (docs/decisions/moot-status-edits.md). Only on platforms whose status message is edited
 * in place (elsewhere each status is a message of its own), and only on a first attempt: after
 * an interrupted one a message may already exist that the next status must find.
 */
import type {
  Destination,
  OutboxItem,
  PlatformCapabilities,
  Store,
} from '../../core/ports/index.js';
import type { Platform } from '../../core/trigger.js';

function sameDestination(a: Destination, b: Destination): boolean {
  return (
    a.threadKey === b.threadKey && a.privateTo === b.privateTo && a.responseUrl === b.responseUrl
  );
}

export async function isMoot(
  store: Pick<Store, 'outboxQueue' | 'runs'>,
  capabilities: Partial<Record<Platform, PlatformCapabilities>> | undefined,
  item: OutboxItem,
  platform: Platform | undefined,
): Promise<boolean> {
  const { payload } = item;
  if (payload.kind !== 'status' || item.attempts > 0) return false;
  if (!platform || capabilities?.[platform]?.editsInPlace !== true) return false;
  // Its claim read what was queued behind it; an item that was not claimed so, asks.
  const next = item.next !== undefined ? item.next : (await store.outboxQueue.next(item))?.payload;
  if (next?.kind !== 'status' || !next.message) return false;
  // The same place, said the same way: a slash command's "Starting…" also says whom to tell
  // privately when the bot may not post there, which the run's own status does not.
  if (!sameDestination(next.destination, payload.destination)) return false;
  if (payload.runId !== undefined) return next.runId === payload.runId;
  if (payload.requestId === undefined) return false;
  if (next.requestId === payload.requestId) return true;
  // "Starting…" (by request) followed by the run's own status (by run).
  if (next.runId === undefined) return false;
  return (await store.runs.get(next.runId))?.requestId === payload.requestId;
}
