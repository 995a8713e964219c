/**
 * The outbox worker: delivers queued notifications through the thread's platform notifier,
 * in order per thread, with retries and backoff, and keeps one status message per run
 * (posted the first time, edited afterwards; what a posted one means for the run is
 * status-message.ts's). A notification that keeps failing is parked,
 * never retried forever.
 */
import type {
  Clock,
  Logger,
  Metrics,
  Notifier,
  OutboxItem,
  PlatformCapabilities,
  Random,
  RunRecord,
  Store,
} from '../../core/ports/index.js';
import { DeliveryError } from '../../core/ports/index.js';
import { platformOf } from '../../core/thread-key.js';
import { RelayError } from '../../core/relay-error.js';
import type { MessageRef, Platform } from '../../core/trigger.js';
import { adoptStatusMessage } from '../status-message.js';
import { backoffDelay } from './backoff.js';
import type { ClaimGate } from './ingress-gate.js';
import { isMoot } from './moot-status.js';
import { createPump, type Pump } from './pump.js';

export interface OutboxWorkerDeps {
  store: Store;
  notifiers: Partial<Record<Platform, Notifier>>;
  /** Where a status message is edited in place, an edit made moot by the next is skipped. */
  capabilities?: Partial<Record<Platform, PlatformCapabilities>>;
  clock: Clock;
  random: Random;
  logger: Logger;
  metrics: Metrics;
  /** Ingress first: claims wait for a burst of requests to end (ingress-gate.ts). */
  gate?: ClaimGate;
  options: {
    leaseMs: number;
    concurrency?: number;
    pollMs: number;
    maxAttempts: number;
    drainMs: number;
    /** After a wake, wait this long before claiming (pump.ts). Default GATHER_MS. */
    gatherMs?: number;
    /** First retry delay; doubles up to `maxRetryDelayMs`. */
    retryBaseMs?: number;
    maxRetryDelayMs?: number;
  };
}

export interface OutboxWorker extends Pump {
  /**
   * Look for work now: in one platform's lane (its notifications were just queued; the
   * other lane's claim would find nothing and cost a write), or in every lane.
   */
  wake(platform?: Platform): void;
}

class ParkNow extends RelayError<'park_now'> {
  override readonly name = 'ParkNow';
  constructor(message: string, options?: { cause?: unknown }) {
    super('park_now', message, options);
  }
}

/**
 * A notification's mark on the platform: its outbox id and creation time, so that a new
 * database (ids from 1 again) never matches an old message.
 */
/** A look for an earlier post starts this long before the notification was queued: our
 * clock and the platform's may differ. */
const CLOCK_SKEW_MS = 60_000;

export function notificationKey(item: Pick<OutboxItem, 'id' | 'createdAt'>): string {
  return `${item.id}.${item.createdAt}`;
}

const PLATFORMS = [
  'slack',
  'github',
  'linear',
  'jira',
  'teams',
] as const satisfies readonly Platform[];

/**
 * A lane woken (a notification queued, a delivery finished) waits this long before it claims:
 * under load the notifications of several triggers are then taken in one claim instead of one
 * claim each (the claim is the outbox's dearest statement), at the price of this much latency.
 */
export const GATHER_MS = 10;

/**
 * Notifications in flight at once in a platform's lane. A delivery spends most of its time
 * waiting for the platform's answer, so the lane keeps many going: with 8, first messages
 * waited for the lane at 60 mentions a second on SQLite (docs/decisions/speed-mechanisms.md).
 * GitHub's client spaces its writes a second apart, so more in flight there would only wait
 * longer under their leases.
 */
export const LANE_CONCURRENCY: Readonly<Record<Platform, number>> = {
  slack: 32,
  github: 8,
  linear: 32,
  jira: 32,
  teams: 32,
};

/** The longest a low lane (refusals) waits for its platform's lane and the inbox to be idle. */
const LOW_LANE_MAX_HOLD_MS = 30_000;

/**
 * How often the lanes of a platform that is off (no notifier) look: nothing is queued for it
 * any more, so they only park what was left from when it was on, and need not ask the
 * database four times a second for that.
 */
const OFF_PLATFORM_POLL_MS = 30_000;

export function createOutboxWorker(deps: OutboxWorkerDeps): OutboxWorker {
  const { store, clock, logger, metrics, options } = deps;
  const log = logger.child({ component: 'outbox' });

  async function deliverOnce(item: OutboxItem, ilog: () => Logger): Promise<void> {
    const { payload } = item;
    const platform = platformOf(payload.destination.threadKey) ?? platformOf(item.threadKey);
    const notifier = platform ? deps.notifiers[platform] : undefined;
    if (!notifier) {
      throw new ParkNow(`no notifier for platform ${platform ?? 'unknown'} (${item.threadKey})`);
    }
    const run = payload.runId ? await store.runs.get(payload.runId) : undefined;
    // Posts carry a stable key; an attempt after an interrupted or failed one first looks
    // for a message an earlier attempt may have posted (exactly one message per notification).
    const postOptions = {
      key: notificationKey(item),
      ...(item.attempts > 0 ? { mayExist: { since: item.createdAt - CLOCK_SKEW_MS } } : {}),
    };
    switch (payload.kind) {
      case 'react': {
        const replaces = payload.replaces ?? [];
        if (!payload.target || (!payload.reaction && replaces.length === 0)) {
          throw new ParkNow('react without target or reaction');
        }
        if (!payload.reaction) {
          await notifier.unreact?.(payload.target, replaces);
          return;
        }
        await notifier.react(
          payload.target,
          payload.reaction,
          replaces.length > 0 ? { replaces } : undefined,
        );
        return;
      }
      case 'session': {
        if (!payload.session) throw new ParkNow('session without status');
        const threadKey = run?.threadKey ?? payload.destination.threadKey;
        await notifier.setSessionStatus?.(threadKey, payload.session);
        return;
      }
      case 'keep_alive': {
        // Decided by the session keeper (tracker/session-keeper.ts); here only written.
        if (!notifier.keepAlive) throw new ParkNow(`no keep-alives on ${notifier.platform}`);
        await notifier.keepAlive(payload.destination.threadKey, postOptions);
        return;
      }
      case 'post': {
        if (!payload.message) throw new ParkNow('post without message');
        // A run anchored in a new thread after this was queued: follow it there.
        const destination = run
          ? { ...payload.destination, threadKey: run.threadKey }
          : payload.destination;
        // An outcome points at the run's card: its address may be known only now (the card
        // is posted by the notification queued just before this one).
        const card = run?.statusMessage?.url;
        const message =
          payload.message.type === 'run_outcome' && card !== undefined
            ? { ...payload.message, cardUrl: card }
            : payload.message;
        await notifier.post(destination, message, postOptions);
        return;
      }
      case 'status': {
        const requestId = run?.requestId ?? payload.requestId;
        if (!payload.message || (!payload.runId && !requestId)) {
          throw new ParkNow('status without message, run or request');
        }
        // The run's one status message: recorded on the run, or posted as "Starting…" before
        // the run existed (kept by request id; read only while the run has none of its own).
        const started =
          requestId && !run?.statusMessage ? await store.startMessages.get(requestId) : undefined;
        const ref = run?.statusMessage ?? started?.message;
        if (ref) {
          try {
            await notifier.update(ref, payload.message);
            if (run && !run.statusMessage) {
              // A "Starting…" post that made a new thread (slash command) moves the run there.
              const moved = started && ref.threadKey !== started.threadKey;
              await adopt(run, ref, moved ? ref.threadKey : undefined);
            }
            return;
          } catch (err) {
            // The status message was deleted: post a new one (below) and keep that.
            if (!(err instanceof DeliveryError && err.code === 'not_found')) throw err;
            ilog().info(
              { runId: run?.runId, requestId },
              'status message is gone; posting a new one',
            );
          }
        }
        const posted = await notifier.post(payload.destination, payload.message, postOptions);
        if (run) {
          await adopt(run, posted.ref, posted.newThreadKey);
          return;
        }
        if (!requestId) return;
        await store.startMessages.setMessage(requestId, posted.ref);
        // The create may have answered while this was being posted.
        const created = await store.runs.getByRequest(requestId);
        if (created && !created.statusMessage) {
          await adopt(created, posted.ref, posted.newThreadKey);
        }
        return;
      }
    }
  }

  /** What posting a run's status message means for the run is the runs' (status-message.ts). */
  const adopt = (run: RunRecord, ref: MessageRef, newKey?: string) =>
    adoptStatusMessage(store, clock.now(), run, ref, newKey);

  async function deliver(item: OutboxItem): Promise<void> {
    // The item's logger is made only for a line to write: most deliveries write none.
    const ilog = () =>
      log.child({ outboxId: item.id, threadKey: item.threadKey, kind: item.payload.kind });
    try {
      const platform = platformOf(item.threadKey);
      if (await isMoot(store, deps.capabilities, item, platform)) {
        await store.outboxQueue.delivered(item.id, clock.now());
        metrics.inc('outbox_superseded', { kind: item.payload.kind });
        return;
      }
      await deliverOnce(item, ilog);
      const now = clock.now();
      await store.outboxQueue.delivered(item.id, now);
      metrics.inc('outbox_delivered', { kind: item.payload.kind });
      if (item.payload.observedAt !== undefined) {
        const seconds = Math.max(0, now - item.payload.observedAt) / 1000;
        metrics.observe('state_change_to_notification_seconds', seconds, {
          kind: item.payload.kind,
        });
      }
    } catch (err) {
      metrics.inc('outbox_delivery_failures', { kind: item.payload.kind });
      const error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      const now = clock.now();
      const permanent = err instanceof ParkNow || (err instanceof DeliveryError && !err.retryable);
      if (permanent || item.attempts + 1 >= options.maxAttempts) {
        // A platform's refusal (no access, gone) is an expected condition: one line, no stack.
        if (err instanceof DeliveryError) {
          ilog().warn(
            { error, code: err.code, attempts: item.attempts + 1 },
            'notification parked',
          );
        } else {
          ilog().error({ err, attempts: item.attempts + 1 }, 'notification parked');
        }
        await store.outboxQueue.park(item.id, error, now);
        return;
      }
      const delay = backoffDelay(item.attempts, {
        baseMs: options.retryBaseMs ?? 1_000,
        maxMs: options.maxRetryDelayMs ?? 300_000,
        random: deps.random,
      });
      const retryAfter = err instanceof DeliveryError ? (err.retryAfterMs ?? 0) : 0;
      ilog().warn(
        err instanceof DeliveryError
          ? { error, code: err.code, attempts: item.attempts + 1 }
          : { err, attempts: item.attempts + 1 },
        'notification delivery failed; will retry',
      );
      await store.outboxQueue.retryLater(item.id, now + Math.max(delay, retryAfter), error);
    }
  }

  /** Notifications in flight in each platform's own lane. */
  const busy: Record<Platform, number> = { slack: 0, github: 0, linear: 0, jira: 0, teams: 0 };
  /**
   * Whether the platform's own lane last found nothing to claim with nothing in flight: the
   * only time its low lane may send. After each delivery the lane claims again (its pump
   * wakes itself) before this can be true again, and a notification queued for the platform
   * makes it false until the lane has looked (the lane gathers for a moment before it claims,
   * and a trigger can be done in the inbox within that moment, its notices not yet claimed).
   */
  const idle: Record<Platform, boolean> = {
    slack: false,
    github: false,
    linear: false,
    jira: false,
    teams: false,
  };
  // One lane per platform: GitHub spaces its writes a second apart, and a Slack reply (or a
  // Linear session's first activity, due within seconds) must
  // not wait behind a queue of GitHub edits (nor the other way round).
  const pollMsOf = (platform: Platform) =>
    deps.notifiers[platform] ? options.pollMs : Math.max(options.pollMs, OFF_PLATFORM_POLL_MS);
  const lanes = PLATFORMS.map((platform) =>
    createPump({
      name: `outbox:${platform}`,
      logger: log,
      concurrency: options.concurrency ?? LANE_CONCURRENCY[platform],
      pollMs: pollMsOf(platform),
      drainMs: options.drainMs,
      gatherMs: options.gatherMs ?? GATHER_MS,
      ...(deps.gate ? { gate: deps.gate } : {}),
      // The depth gauge is read at scrape time (main.ts), not counted after every claim.
      claim: async (limit) => {
        const items = await store.outboxQueue.claim(clock.now(), options.leaseMs, limit, {
          threadKeyPrefix: `${platform}:`,
          lane: 'normal',
        });
        // The low lane is woken when the lane empties, not at each look that finds it empty
        // (an idle relay's lanes look several times a second).
        const wasIdle = idle[platform];
        idle[platform] = items.length === 0 && busy[platform] === 0;
        if (idle[platform] && !wasIdle) lowLanes[PLATFORMS.indexOf(platform)]?.wake();
        return items;
      },
      process: async (item) => {
        busy[platform] += 1;
        idle[platform] = false;
        try {
          await deliver(item);
        } finally {
          busy[platform] -= 1;
        }
      },
    }),
  );
  // Behind each platform's lane, the low lane (refusals to people who may not use the bot):
  // one at a time, and only while the platform's own lane is idle (nothing in flight, nothing
  // due) and no trigger waits in the inbox (its notices are about to come), so a crowd of
  // refusals takes at most one write slot ahead of anyone's notice. A lane held for LOW_LANE_MAX_HOLD_MS
  // sends one anyway: a relay that is never idle still answers everyone, slowly.
  const heldSince: Record<Platform, number | undefined> = {
    slack: undefined,
    github: undefined,
    linear: undefined,
    jira: undefined,
    teams: undefined,
  };
  /** Until when a low lane that last found nothing does not look again. */
  const lowQuietUntil: Record<Platform, number> = {
    slack: 0,
    github: 0,
    linear: 0,
    jira: 0,
    teams: 0,
  };
  async function lowLaneHeld(platform: Platform): Promise<boolean> {
    let held = !idle[platform];
    if (!held && (await store.inboxQueue.depth()) > 0) {
      held = true;
      // Triggers wait (their notices come first): the lane's next idle moment, under load
      // many a second, need not count them again; the next look is after a poll interval,
      // as after a look that found nothing.
      lowQuietUntil[platform] = clock.now() + options.pollMs;
    }
    const now = clock.now();
    if (!held) {
      heldSince[platform] = undefined;
      return false;
    }
    const since = (heldSince[platform] ??= now);
    if (now - since < LOW_LANE_MAX_HOLD_MS) return true;
    heldSince[platform] = now;
    return false;
  }
  const lowLanes = PLATFORMS.map((platform) =>
    createPump({
      name: `outbox:${platform}:low`,
      logger: log,
      concurrency: 1,
      // Woken when a refusal is queued and when the platform's lane empties; the poll is
      // only the fallback (and a look at the inbox's depth), so it is slower.
      pollMs: pollMsOf(platform) * 4,
      drainMs: options.drainMs,
      ...(deps.gate ? { gate: deps.gate } : {}),
      claim: async (limit) => {
        // Woken each time the platform's lane empties, which under load is many times a
        // second: after a look that found nothing, the next waits a poll interval.
        if (clock.now() < lowQuietUntil[platform]) return [];
        if (await lowLaneHeld(platform)) return [];
        const items = await store.outboxQueue.claim(clock.now(), options.leaseMs, limit, {
          threadKeyPrefix: `${platform}:`,
          lane: 'low',
        });
        if (items.length === 0) lowQuietUntil[platform] = clock.now() + options.pollMs;
        return items;
      },
      process: deliver,
    }),
  );
  const all = [...lanes, ...lowLanes];
  return {
    start: () => all.forEach((lane) => lane.start()),
    stop: async () => {
      await Promise.all(all.map((lane) => lane.stop()));
    },
    wake: (platform?: Platform) => {
      for (const p of PLATFORMS) if (platform === undefined || p === platform) idle[p] = false;
      for (const [i, lane] of all.entries())
        if (platform === undefined || PLATFORMS[i % PLATFORMS.length] === platform) lane.wake();
    },
    // The platform lanes first: what the low lanes claim then is what is left.
    runOnce: async () =>
      (await Promise.all(lanes.map((lane) => lane.runOnce()))).reduce((a, b) => a + b, 0) +
      (await Promise.all(lowLanes.map((lane) => lane.runOnce()))).reduce((a, b) => a + b, 0),
  };
}
