/**
 * What the use cases of runs/ are built from. `createEngine` (engine.ts) fills it from
 * `EngineDeps`; each part takes only this and calls the ports, never an adapter.
 */
import type { Deferral } from './workers/deferral.js';
import type {
  AgentService,
  Catalogue,
  Clock,
  Logger,
  Metrics,
  Notifier,
  PlatformCapabilities,
  Random,
  PlatformAccess,
  RunRecord,
  Store,
} from '../core/ports/index.js';
import type { Platform, Trigger } from '../core/trigger.js';

export interface EngineOptions {
  /** GitHub @-mention handle (without @). */
  botHandle: string;
  /** A platform's own @-handle where it has one (Jira: JIRA_BOT_HANDLE); else `botHandle`. */
  botHandles?: Partial<Record<Platform, string>>;
  /** Slack slash command / GitHub line command, e.g. `/agent`. */
  commandWord: string;
  /** The tracker's base interval (POLL_INTERVAL_MS). */
  pollIntervalMs: number;
  trackerMode: 'batch' | 'per-run';
  /** Upper bound of a run's prompt including the thread context. */
  maxPromptChars: number;
  /**
   * Triggers in hand at once (different threads; one per thread always). A trigger in hand
   * queues its first sign (👀, "Starting…") at once and then waits for the service lane, so
   * this bounds how many first signs can go out while the service is slow. Default 1024.
   */
  inboxConcurrency?: number;
  /**
   * The triggers' calls to the service in flight at once (the service lane,
   * workers/service-lane.ts): the service's latency must not bound the relay's throughput,
   * nor may the relay flood it. Default 128.
   */
  serviceConcurrency?: number;
  /** Inbox/outbox claim lease. Default 120 s. */
  leaseMs?: number;
  /** Idle poll of the inbox and outbox workers. Default 250 ms. */
  workerPollMs?: number;
  /** Longest per-run check interval of a live run. Default 30 s. */
  maxCheckIntervalMs?: number;
  /** Check interval of BLOCKED runs. Default 60 s. */
  blockedCheckIntervalMs?: number;
  /** Inbox retry schedule for an unavailable service (ms); its length bounds the attempts. */
  inboxRetryDelaysMs?: number[];
  /** Waits between cancel attempts while the run is PENDING (409). Default 1 s, 2 s, 4 s. */
  cancelRetryDelaysMs?: number[];
  /** Attempts before a notification is parked. Default 10. */
  outboxMaxAttempts?: number;
  /** Bound on draining in-flight work on stop(). Default 10 s. */
  drainMs?: number;
  /** How long the tracking lease lasts unrenewed. Default: 4 poll intervals, at least 3 s. */
  trackerLeaseMs?: number;
  /**
   * Ingress first (workers/ingress-gate.ts): requests a second, reported by `noteArrival()`,
   * that make a burst during which the workers claim nothing new. Default 0: no gate.
   */
  burstPerSecond?: number;
  /** Progress reads a minute for all running runs (0: off). Default 60. */
  progressReadsPerMinute?: number;
  /** Least time between two progress reads of one run. Default 15 s. */
  progressIntervalMs?: number;
}

export type ResolvedEngineOptions = Required<EngineOptions>;

export const DEFAULT_INBOX_RETRY_DELAYS_MS = [
  5_000, 15_000, 60_000, 120_000, 300_000, 300_000, 300_000,
];

export function resolveEngineOptions(options: EngineOptions): ResolvedEngineOptions {
  return {
    ...options,
    inboxConcurrency: options.inboxConcurrency ?? 1024,
    serviceConcurrency: options.serviceConcurrency ?? 128,
    leaseMs: options.leaseMs ?? 120_000,
    workerPollMs: options.workerPollMs ?? 250,
    maxCheckIntervalMs: options.maxCheckIntervalMs ?? 30_000,
    blockedCheckIntervalMs: options.blockedCheckIntervalMs ?? 60_000,
    inboxRetryDelaysMs: options.inboxRetryDelaysMs ?? DEFAULT_INBOX_RETRY_DELAYS_MS,
    cancelRetryDelaysMs: options.cancelRetryDelaysMs ?? [1_000, 2_000, 4_000],
    outboxMaxAttempts: options.outboxMaxAttempts ?? 10,
    drainMs: options.drainMs ?? 10_000,
    trackerLeaseMs: options.trackerLeaseMs ?? trackerLeaseFor(options.pollIntervalMs),
    burstPerSecond: options.burstPerSecond ?? 0,
    progressReadsPerMinute: options.progressReadsPerMinute ?? 60,
    progressIntervalMs: options.progressIntervalMs ?? 15_000,
    botHandles: options.botHandles ?? {},
  };
}

/**
 * How long the tracking lease lasts unrenewed: a few poll intervals, so another replica takes
 * over within that of its holder's death, and never so short that one slow cycle loses it.
 */
export function trackerLeaseFor(pollIntervalMs: number): number {
  return Math.max(4 * pollIntervalMs, 3_000);
}

/** Whether `trigger.actor` may cancel `run` (undefined: a run this relay did not start). */
export type MayCancel = (trigger: Trigger, run: RunRecord | undefined) => boolean;

export interface RunsDeps {
  store: Store;
  agent: AgentService;
  notifiers: Partial<Record<Platform, Notifier>>;
  /** What each platform can do (private answers, buttons), where the runs' answers differ. */
  capabilities: Partial<Record<Platform, PlatformCapabilities>>;
  clock: Clock;
  random: Random;
  logger: Logger;
  metrics: Metrics;
  /** Waits between cancel attempts (tests pass a fast one). Default: setTimeout. */
  sleep: (ms: number) => Promise<void>;
  options: ResolvedEngineOptions;
  /** Who may cancel a run. Default: the requester, or (Slack) an admin of agent-relay. */
  mayCancel: MayCancel;
  /**
   * Whether a person may act in a place, asked after the acknowledgement: GitHub's
   * repositories (`check`), other platforms' places (`checkPlace`: Slack's people, Jira's
   * projects, Linear's admins). Unset: no check.
   */
  repoAccess?: PlatformAccess;
  /**
   * The service's environments and models (env=/model= by name). Unset: values are sent as
   * given.
   */
  catalogue?: Catalogue;
  /**
   * Tell the outbox that notifications were enqueued: for one platform's threads (only that
   * platform's lane looks), or, without one, for any.
   */
  notifyOutbox: (platform?: Platform) => void;
  /** Tell the tracker to look at a run soon (after a follow-up or cancel). */
  nudgeTracker: (runId: string) => void;
  /**
   * The service is full or rate-limits us (429, `at_capacity`): no trigger calls it for `ms`
   * (the service lane waits; first signs still go out), so everything slows down rather than
   * every trigger retrying at once.
   */
  slowDown: (ms: number, reason: 'rate_limit' | 'at_capacity') => void;
  /**
   * Whether a trigger whose first sign is out steps back to the inbox rather than wait in
   * hand for the service lane (workers/deferral.ts). Unset: it always waits in hand.
   */
  deferral?: Deferral;
  /** An admitted trigger (deferral.ts) is done with the service. */
  leftService?: () => void;
}

/** The words a notice tells people to write: the @-handles and the slash command. */
export interface BudgetWords {
  botHandle: string;
  commandWord: string;
  botHandles?: Partial<Record<Platform, string>>;
}

/** The @-handle people write on a platform: its own (JIRA_BOT_HANDLE), else GitHub's. */
export function handleOn(
  words: Pick<BudgetWords, 'botHandle' | 'botHandles'>,
  platform: Platform,
): string {
  return words.botHandles?.[platform] ?? words.botHandle;
}
