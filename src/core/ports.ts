/**
 * The ports the platform-neutral middle (core/, runs/) talks to. `main.ts` wires real
 * adapters: the agent client (agent/), the SQLite/PostgreSQL store (store/), and the Slack
 * and GitHub notifiers. Tests wire the same real adapters against local fakes.
 */
import type {
  CreateRunRequest,
  CreateRunResponse,
  DispatchRequest,
  DispatchResponse,
  Factory,
  FollowupRequest,
  ListRunsQuery,
  RunItem,
} from '../agent/schemas.js';
import type {
  AppliedSetting,
  MessageModel,
  OptionKey,
  ReactionName,
} from './message/message-model.js';
import type { MessageRef, Platform, Trigger } from './trigger.js';

// ---------------------------------------------------------------------------------------
// Time, ids, telemetry

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}
export const systemClock: Clock = { now: () => Date.now() };

/** Injected randomness: ids for relay requests, jitter. */
export interface Random {
  id(): string;
  /** A float in [0, 1). */
  float(): number;
}

/**
 * Counters and histograms the runtime exports as Prometheus series. The core only names
 * events; `main.ts` binds them to prom-client. A no-op implementation is fine in tests.
 */
export type CounterName =
  | 'triggers_received'
  | 'duplicates_dropped'
  | 'runs_created'
  | 'followups_sent'
  | 'cancels'
  | 'outbox_delivery_failures'
  | 'outbox_delivered';
export type HistogramName =
  'tracker_cycle_seconds' | 'state_change_to_notification_seconds' | 'trigger_to_ack_seconds';
export type GaugeName = 'live_runs_tracked' | 'outbox_depth' | 'inbox_depth';
export interface Metrics {
  inc(name: CounterName, labels?: Record<string, string>, value?: number): void;
  observe(name: HistogramName, seconds: number, labels?: Record<string, string>): void;
  set(name: GaugeName, value: number, labels?: Record<string, string>): void;
}
export const noopMetrics: Metrics = { inc() {}, observe() {}, set() {} };

/** The subset of pino's logger the core uses; pino loggers satisfy it. */
export interface Logger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  child(bindings: Record<string, unknown>): Logger;
}

// ---------------------------------------------------------------------------------------
// The Agent Run Service

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  maxRetries?: number;
}

export interface RunPage {
  runs: RunItem[];
  hasNextPage: boolean;
  nextCursor?: string;
}

/**
 * What the core needs from the Agent Run Service. The agent client implements it; its
 * errors are `AgentApiError` subclasses whose `status`, `code` and `retryable` the core
 * reads through `describeServiceError` (never by message text).
 */
export interface AgentService {
  createRun(request: CreateRunRequest, options?: CallOptions): Promise<CreateRunResponse>;
  listRuns(query?: ListRunsQuery, options?: CallOptions): Promise<RunPage>;
  getRun(runId: string, options?: CallOptions): Promise<RunItem>;
  sendFollowup(runId: string, body: FollowupRequest, options?: CallOptions): Promise<void>;
  cancelRun(runId: string, options?: CallOptions): Promise<void>;
  listFactories(query: { search?: string }, options?: CallOptions): Promise<Factory[]>;
  dispatchToFactory(
    uid: string,
    body: DispatchRequest,
    options?: CallOptions,
  ): Promise<DispatchResponse>;
  /**
   * Find a run created with `metadata.relay_request === requestId` (reconciliation after a
   * create whose outcome is unknown). `createdAfter` bounds the search (RFC 3339).
   */
  findRunByRequest(requestId: string, createdAfter: string): Promise<RunItem | undefined>;
}

/**
 * Stable kinds of service failure. The agent client's errors carry one as `kind`; the core
 * reads errors only through `isServiceError`, never by message text or class identity.
 */
export type ServiceErrorKind =
  | 'bad_request'
  | 'authentication'
  | 'permission_denied'
  | 'not_found'
  | 'conflict'
  | 'unprocessable'
  | 'rate_limit'
  | 'internal_server'
  | 'connection'
  | 'connection_timeout'
  | 'response_validation';

export interface ServiceErrorLike {
  kind: ServiceErrorKind;
  /** HTTP status when the service answered. */
  status?: number;
  /** The service's error code (last segment of the problem `type`), e.g. `resource_unavailable`. */
  code?: string;
  retryable: boolean;
  retryAfterMs?: number;
  /** The service's `detail` (plain text, may be shown to users). */
  detail?: string;
  /** A create whose request may have reached the service: reconcile, do not blindly retry. */
  outcomeUnknown?: boolean;
  message: string;
}

const SERVICE_ERROR_KINDS: ReadonlySet<string> = new Set<ServiceErrorKind>([
  'bad_request',
  'authentication',
  'permission_denied',
  'not_found',
  'conflict',
  'unprocessable',
  'rate_limit',
  'internal_server',
  'connection',
  'connection_timeout',
  'response_validation',
]);

export function isServiceError(err: unknown): err is ServiceErrorLike & Error {
  return (
    err instanceof Error &&
    typeof (err as { kind?: unknown }).kind === 'string' &&
    SERVICE_ERROR_KINDS.has((err as unknown as { kind: string }).kind) &&
    typeof (err as { retryable?: unknown }).retryable === 'boolean'
  );
}

// ---------------------------------------------------------------------------------------
// Ingress -> inbox

/** What an ingress hands its triggers to (DESIGN.md: write to the inbox, then acknowledge). */
export interface TriggerSink {
  accept(trigger: Trigger): Promise<'accepted' | 'duplicate'>;
  /** Whether the thread already has a run (Slack: plain replies in such a thread are follow-ups). */
  threadHasRun(threadKey: string): Promise<boolean>;
}

// ---------------------------------------------------------------------------------------
// Notifiers (Slack, GitHub)

/** Where a notification goes. `threadKey` names the thread; the rest is optional detail. */
export interface Destination {
  threadKey: string;
  /** Answer only this user (Slack ephemeral). */
  privateTo?: string;
}

/**
 * How the outbox posts one notification. `key` is stable across retries: the notifier marks
 * the posted message with it (Slack message metadata, a hidden marker in a GitHub comment).
 * `mayExist` says an earlier attempt may have reached the platform without the relay
 * recording it (a crash, a timeout after the platform accepted): the notifier first looks
 * for a message carrying `key` posted since `since` (epoch ms) and answers with that one.
 */
export interface PostOptions {
  key?: string;
  mayExist?: { since: number };
}

export interface PostResult {
  ref: MessageRef;
  /** Set when posting created a new thread (slash-command status message on Slack). */
  newThreadKey?: string;
}

/**
 * A platform's delivery side. Errors: throw `DeliveryError` (retryable with an optional
 * `retryAfterMs`, or permanent) so the outbox can reschedule or park without reading
 * platform details.
 */
export interface Notifier {
  readonly platform: Platform;
  post(to: Destination, message: MessageModel, options?: PostOptions): Promise<PostResult>;
  update(ref: MessageRef, message: MessageModel): Promise<void>;
  react(target: MessageRef, reaction: ReactionName): Promise<void>;
  /**
   * Slack: the earlier messages of a thread (bounded by count and characters, bots marked),
   * fetched when a run starts in a thread that has no run yet. Optional per platform.
   */
  fetchThreadMessages?(
    threadKey: string,
    beforeMessage?: MessageRef,
  ): Promise<{ author: string; text: string; isBot?: boolean }[]>;
}

export type DeliveryErrorCode =
  'rate_limited' | 'unavailable' | 'not_found' | 'forbidden' | 'invalid' | 'unknown';

export class DeliveryError extends Error {
  override readonly name = 'DeliveryError';
  constructor(
    readonly code: DeliveryErrorCode,
    message: string,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

// ---------------------------------------------------------------------------------------
// The store

export interface ThreadRecord {
  threadKey: string;
  platform: Platform;
  currentRunId?: string;
  /** Who started the thread's first run. */
  startedBy?: string;
  createdAt: number;
  updatedAt: number;
}

export interface RunRecord {
  runId: string;
  threadKey: string;
  platform: Platform;
  /** The relay request id stamped into metadata.relay_request. */
  requestId: string;
  requester: { id: string; name?: string };
  title: string;
  /** Last state seen from the service. */
  state: string;
  /** The service's updated_at (RFC 3339) at the last observation. */
  serviceUpdatedAt?: string;
  /** The settings that applied and where each came from. */
  applied: AppliedSetting[];
  factory?: { uid: string; alias?: string; name?: string };
  /** The message whose reactions show the outcome. */
  triggerMessage?: MessageRef;
  /** The single status message, once posted. */
  statusMessage?: MessageRef;
  /** Last state a final/BLOCKED reply was queued for (so it is sent once per episode). */
  notifiedState?: string;
  /** Tracking: when to look next, and the current per-run interval. */
  nextCheckAt: number;
  checkIntervalMs: number;
  /** True while the tracker should look at it (live, or BLOCKED/ended not yet settled). */
  tracked: boolean;
  createdAt: number;
  updatedAt: number;
}

export type InboxStatus = 'pending' | 'processing' | 'done' | 'failed';
export interface TrackedBrief {
  runId: string;
  state: string;
  serviceUpdatedAt?: string;
  createdAt: number;
}

export interface InboxItem {
  id: number;
  deliveryId: string;
  threadKey: string;
  trigger: Trigger;
  status: InboxStatus;
  attempts: number;
  nextAttemptAt: number;
  /** Whether the user has been told that their request waits (told once, not per retry). */
  waitNoticeSent: boolean;
  lastError?: string;
  createdAt: number;
}

export type OutboxKind = 'post' | 'status' | 'react';
export interface OutboxPayload {
  kind: OutboxKind;
  destination: Destination;
  /** For 'post' and 'status'. */
  message?: MessageModel;
  /** For 'status': the run whose single status message is posted or edited. */
  runId?: string;
  /** For 'react'. */
  target?: MessageRef;
  reaction?: ReactionName;
  /** When the state change this reports was seen (for the delay metric), epoch ms. */
  observedAt?: number;
}
export type OutboxStatus = 'pending' | 'delivered' | 'parked';
export interface OutboxItem {
  id: number;
  threadKey: string;
  payload: OutboxPayload;
  status: OutboxStatus;
  attempts: number;
  nextAttemptAt: number;
  lastError?: string;
  createdAt: number;
}

export interface SettingRecord {
  scope: string;
  key: OptionKey;
  value: string;
  updatedBy?: string;
  updatedAt: number;
}

/** The part of the store usable inside a transaction. */
export interface StoreTx {
  threads: {
    get(threadKey: string): Promise<ThreadRecord | undefined>;
    /** Create or update; `currentRunId` becomes the thread's current run when given. */
    upsert(thread: Omit<ThreadRecord, 'createdAt' | 'updatedAt'>, now: number): Promise<void>;
    /** Record that `aliasKey` (e.g. a Slack thread born from a status message) is `threadKey`. */
    addAlias(aliasKey: string, threadKey: string): Promise<void>;
    /** Resolve an alias to its thread key (the key itself when it is no alias). */
    resolve(key: string): Promise<string>;
  };
  runs: {
    get(runId: string): Promise<RunRecord | undefined>;
    getByRequest(requestId: string): Promise<RunRecord | undefined>;
    insert(run: RunRecord): Promise<void>;
    update(runId: string, patch: Partial<Omit<RunRecord, 'runId'>>): Promise<void>;
    /** Tracked runs whose next check is due, oldest first. */
    listDue(now: number, limit: number): Promise<RunRecord[]>;
    /** All tracked runs (the tracker's batch view). */
    listTracked(limit?: number): Promise<RunRecord[]>;
    /** These runs (those that exist), in no particular order. */
    getMany(runIds: readonly string[]): Promise<RunRecord[]>;
    /**
     * Runs, tracked or not, whose record was written at or after `since` (epoch ms of the
     * relay's clock): what changed in the store since the batch tracker last looked.
     */
    listWrittenSince(since: number): Promise<RunRecord[]>;
    /** Id, state and when the service last changed it, for every tracked run (small rows). */
    listTrackedBrief(): Promise<TrackedBrief[]>;
    countTracked(): Promise<number>;
    listByThread(threadKey: string, limit: number): Promise<RunRecord[]>;
  };
  inbox: {
    /** Accept a trigger; false when its delivery id was seen before (duplicate). */
    add(trigger: Trigger, now: number): Promise<boolean>;
    get(id: number): Promise<InboxItem | undefined>;
    complete(id: number, now: number): Promise<void>;
    /** Put back for a later attempt (service down): attempts + 1, next attempt at `at`. */
    retryLater(id: number, at: number, error: string, waitNoticeSent?: boolean): Promise<void>;
    /** Give up (a final apology was queued). */
    fail(id: number, error: string, now: number): Promise<void>;
  };
  outbox: {
    enqueue(payload: OutboxPayload, now: number): Promise<number>;
  };
  settings: {
    list(scope: string): Promise<SettingRecord[]>;
    set(
      scope: string,
      key: OptionKey,
      value: string,
      updatedBy: string,
      now: number,
    ): Promise<void>;
    unset(scope: string, key: OptionKey): Promise<void>;
  };
}

export interface Store extends StoreTx {
  /** Run `fn` in one transaction; everything it wrote is committed together or not at all. */
  transaction<T>(fn: (tx: StoreTx) => Promise<T>): Promise<T>;
  /**
   * Release every inbox/outbox claim (lease) at once, at start-up, so work a crashed
   * process held is taken again now rather than when its lease runs out. Only for a
   * database no other replica shares (SQLite): a live replica's claims would be taken too.
   * An inbox item goes back to pending with its interrupted attempt counted.
   */
  releaseLeases?(now: number): Promise<{ inbox: number; outbox: number }>;
  /**
   * Delete up to `limit` finished inbox items (done, failed) and as many finished
   * notifications (delivered, parked) last touched before `before`. Pending and claimed work
   * is never touched.
   */
  pruneFinished?(before: number, limit: number): Promise<{ inbox: number; outbox: number }>;
  /**
   * Run `fn`'s store calls under a deadline: after `ms` it rejects with a retryable `busy`
   * error, and none of its statements starts later (so nothing lands after the caller was
   * told it failed). For requests that must be answered in time (Slack's 3 s).
   */
  withDeadline?<T>(ms: number, fn: () => Promise<T>): Promise<T>;
  inboxQueue: {
    /**
     * Claim up to `limit` pending triggers that are due, at most one per thread, never for a
     * thread that has a claimed item whose lease is still live, oldest first per thread. The
     * claim is a lease: a crashed process's items come back after `leaseMs`.
     */
    claim(now: number, leaseMs: number, limit: number): Promise<InboxItem[]>;
    /** Pending + processing rows (for /metrics and drain). */
    depth(): Promise<number>;
  };
  outboxQueue: {
    /**
     * Claim due notifications, at most one per thread (order per thread is kept), as a lease.
     * `filter.threadKeyPrefix` (e.g. `slack:`) claims only one platform's notifications, so a
     * slow platform never holds up another's.
     */
    claim(
      now: number,
      leaseMs: number,
      limit: number,
      filter?: { threadKeyPrefix?: string },
    ): Promise<OutboxItem[]>;
    delivered(id: number, now: number): Promise<void>;
    retryLater(id: number, at: number, error: string): Promise<void>;
    park(id: number, error: string, now: number): Promise<void>;
    depth(): Promise<number>;
    /** Delivered, parked and pending rows, for tests and the demo. */
    list(filter?: { threadKey?: string; status?: OutboxStatus }): Promise<OutboxItem[]>;
  };
  /** Cheap liveness check for /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export type { ListRunsQuery, RunItem, OptionKey, Platform };
