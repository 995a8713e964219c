/**
 * The one polite reply to someone who may not use the relay, for every platform. The ingress
 * runs no logic and reaches nothing of the service: it hands the reply to a `RefusalSink`,
 * which the runtime wires to the outbox (`createOutboxRefusalSink`), so it is delivered,
 * retried and parked like every other notification, in the outbox's low lane.
 *
 * Why a port of its own rather than the TriggerSink: a refused trigger must not enter the
 * inbox at all.
 */
import { refusalCapOf } from '../core/place.js';
import type { MessageModel } from '../core/message/message-model.js';
import type { Clock, StoreTx } from '../core/ports/index.js';
import type { Actor, MessageRef } from '../core/trigger.js';

export interface Refusal {
  deliveryId: string;
  threadKey: string;
  actor: Actor;
  triggerMessage?: MessageRef;
  message: MessageModel;
}

export interface RefusalSink {
  /**
   * Queue the reply. 'duplicate': this delivery was refused before (redelivery);
   * 'suppressed': this person was already told in this thread recently.
   */
  refuse(refusal: Refusal): Promise<'queued' | 'duplicate' | 'suppressed'>;
}

export interface OutboxRefusalSinkDeps {
  /** Who was told where (`refusals`) and the outbox, written in one transaction. */
  store: {
    transaction<T>(fn: (tx: Pick<StoreTx, 'outbox' | 'refusals'>) => Promise<T>): Promise<T>;
  };
  clock: Clock;
  /** One refusal per person and thread within this window. Default 1 hour. */
  windowMs?: number;
  /** Delivery ids remembered (redeliveries). Default 5,000. */
  remember?: number;
  /** Told after a reply was queued, so the outbox delivers it now rather than at its next poll. */
  onQueued?: () => void;
}

/** Drop the oldest entries (insertion order) beyond `max`. */
function trim<K>(collection: Set<K>, max: number): void {
  for (const key of collection.keys()) {
    if (collection.size <= max) return;
    collection.delete(key);
  }
}

/**
 * The outbox-backed sink. Whether a person was told in a thread within the window is kept in
 * the store, so every replica and a restarted process know it; the reply goes in the outbox's
 * low lane, behind every notice of the people the relay serves. Redeliveries are recognised
 * in memory (one process's view; a redelivery to another replica is then `suppressed`).
 */
export function createOutboxRefusalSink(deps: OutboxRefusalSinkDeps): RefusalSink {
  const windowMs = deps.windowMs ?? 60 * 60_000;
  const remember = deps.remember ?? 5_000;
  const deliveries = new Set<string>();

  return {
    async refuse(refusal) {
      if (deliveries.has(refusal.deliveryId)) return 'duplicate';
      const now = deps.clock.now();
      const told = await deps.store.transaction(async (tx) => {
        const cap = refusalCapOf(refusal.threadKey);
        if (!(await tx.refusals.note(refusal.threadKey, refusal.actor.id, now, windowMs, cap))) {
          return false;
        }
        await tx.outbox.enqueue(
          {
            kind: 'post',
            destination: { threadKey: refusal.threadKey },
            message: refusal.message,
            lane: 'low',
          },
          now,
        );
        return true;
      });
      if (told) deps.onQueued?.();
      deliveries.add(refusal.deliveryId);
      trim(deliveries, remember);
      return told ? 'queued' : 'suppressed';
    },
  };
}
