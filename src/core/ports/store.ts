/**
 * The store port: the records the relay keeps (threads, runs, inbox, outbox, settings) and the
 * operations on them, inside or outside one transaction. store/ implements it on SQLite and
 * PostgreSQL; its contract tests run against both.
 */
import type {
  MessageModel,
  AppliedSetting,
  OptionKey,
  ReactionName,
} from '../message/message-model.js';
import type { MessageRef, Platform, Trigger } from '../trigger.js';
import type { ConsoleSessionRepo, LoginPinRepo, UsedOnceRepo } from './console-sessions.js';
import type { InstallationRepo } from './installations.js';
import type { Destination } from './notifier.js';
import type { OperatorQueries } from './operator-queries.js';
import type { ReactionIds } from './reaction-ids.js';
import type { LinearSessions } from './linear-sessions.js';

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
  /**
   * Run time of the run's executions before the current one (ms): a follow-up to an ended
   * run starts a new execution, and the service's run_time covers only that one.
   */
  earlierRunMs?: number;
  /** The cost the service last reported for the run (approximate US dollars), if any. */
  costUsd?: number;
  /** The token total the service last reported for the run, if any. */
  tokens?: number;
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

/**
 * A run's thread as a platform's agent session shows it: `processing` while the agent works,
 * `suspended` while it waits for input (BLOCKED, interrupted), `active` when it ended and a
 * reply continues it, `closed` when it was cancelled.
 */
export type SessionStatus = 'processing' | 'suspended' | 'active' | 'closed';

export type OutboxKind = 'post' | 'status' | 'react' | 'session';
export interface OutboxPayload {
  kind: OutboxKind;
  destination: Destination;
  /** For 'post' and 'status'. */
  message?: MessageModel;
  /** For 'status': the run whose single status message is posted or edited. */
  runId?: string;
  /**
   * For 'status' without `runId`: the request whose status message ("Starting…", posted
   * before the run existed) is posted or edited (`StoreTx.startMessages`).
   */
  requestId?: string;
  /** For 'session': the status the thread's agent session is set to (Slack agent sessions). */
  session?: SessionStatus;
  /** For 'react'. */
  target?: MessageRef;
  reaction?: ReactionName;
  /** For 'react': reactions of ours this one supersedes (taken off first). Alone: only that. */
  replaces?: ReactionName[];
  /** When the state change this reports was seen (for the delay metric), epoch ms. */
  observedAt?: number;
  /**
   * `low`: delivered behind every other notification of its platform (a refusal to someone
   * who may not use the bot), so a crowd of outsiders never delays anyone's run.
   */
  lane?: 'low';
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

/**
 * A run's status message posted before the service created the run ("Starting…"), by the
 * request id the run will carry. `message` is set once the platform has it.
 */
export interface StartMessageRecord {
  requestId: string;
  /** Where it was queued (a slash command's channel key until the post makes a thread). */
  threadKey: string;
  message?: MessageRef;
  createdAt: number;
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
    /**
     * Compare-and-set: write `patch` only if the run's row still holds what `seen` (a record
     * read earlier) says about the fields a tracking decision rests on: `state`,
     * `serviceUpdatedAt`, `notifiedState`, `tracked` and `updatedAt`. False when another
     * writer (a second tracker, a follow-up, a cancel) changed one of them in between, or the
     * run is gone: the caller reads again and decides again, so a notice is never queued twice.
     */
    compareAndUpdate(
      runId: string,
      seen: Pick<
        RunRecord,
        'state' | 'serviceUpdatedAt' | 'notifiedState' | 'tracked' | 'updatedAt'
      >,
      patch: Partial<Omit<RunRecord, 'runId'>>,
    ): Promise<boolean>;
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
    /**
     * The most recently created runs whose thread key starts with `threadKeyPrefix` (e.g.
     * `slack:T123:`, one workspace), newest first: what a person's home page lists.
     */
    listRecent(threadKeyPrefix: string, limit: number): Promise<RunRecord[]>;
    /**
     * The sum of the last reported cost (approximate US dollars) of the runs whose thread key
     * starts with `threadKeyPrefix` (a place) and that were created at or after `since`
     * (epoch ms). Runs without a reported cost add nothing.
     */
    spendSince(threadKeyPrefix: string, since: number): Promise<number>;
    /** The same for one requester's runs (by their platform id) under `threadKeyPrefix`. */
    spendOfRequesterSince(
      threadKeyPrefix: string,
      requesterId: string,
      since: number,
    ): Promise<number>;
    /**
     * One requester's runs under `threadKeyPrefix` created at or after `since`: the sum of
     * their reported costs and how many reported one (a person's month, over all their runs).
     */
    usageOfRequesterSince(
      threadKeyPrefix: string,
      requesterId: string,
      since: number,
    ): Promise<{ spentUsd: number; costed: number }>;
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
  refusals: {
    /**
     * Note that `person` is refused in `threadKey` now, unless they were told there within
     * `windowMs`: true when this refusal is to be told (and is now remembered), false when
     * it was told recently. Entries older than the window are forgotten as it goes.
     */
    note(threadKey: string, person: string, now: number, windowMs: number): Promise<boolean>;
  };
  startMessages: {
    /** Note that a request's acknowledgement is queued; false when it was already. */
    open(requestId: string, threadKey: string, now: number): Promise<boolean>;
    get(requestId: string): Promise<StartMessageRecord | undefined>;
    /** The posted message (the outbox calls this once the platform answered). */
    setMessage(requestId: string, message: MessageRef): Promise<void>;
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
   * notifications (delivered, parked) last touched before `before`, and as many records of
   * "Starting…" messages made before `before`. Pending and claimed work is never touched.
   */
  pruneFinished?(
    before: number,
    limit: number,
  ): Promise<{ inbox: number; outbox: number; startMessages: number }>;
  /**
   * Delete up to `limit` runs no longer tracked whose record was last written before `before`
   * (with their state history), then up to `limit` threads last written before then that have
   * no run left and nothing waiting in the inbox or outbox (with their aliases), then up to
   * `limit` records of sub-runs' BLOCKED episodes last written before then whose episode ended
   * or whose run is no longer tracked.
   */
  pruneRuns?(
    before: number,
    limit: number,
  ): Promise<{ runs: number; threads: number; blockedDescendants: number }>;
  /**
   * Run `fn`'s store calls under a deadline: after `ms` it rejects with a retryable `busy`
   * error, and none of its statements starts later (so nothing lands after the caller was
   * told it failed). For requests that must be answered in time (Slack's 3 s).
   */
  withDeadline?<T>(ms: number, fn: () => Promise<T>): Promise<T>;
  /**
   * The database server's own clock (epoch ms), where replicas share the database
   * (PostgreSQL): every replica takes its times, and so every lease decision, from it, so
   * replicas whose clocks disagree never steal or keep one another's leases. Undefined for a
   * database only one process uses (SQLite), where the process's clock is the one clock.
   */
  databaseTime?(): Promise<number>;
  /**
   * Who opened the Slack App Home tab, and when last: shared by the replicas, so any of them
   * that sees a person's run change refreshes their tab.
   */
  /** The platform ids of the reactions the relay added (migration 012). */
  reactionIds?: ReactionIds;
  /** What the Linear notifier remembers of each agent session, for every replica (migration 016). */
  linearSessions?: LinearSessions;
  homeViewers: {
    opened(teamId: string, userId: string, at: number): Promise<void>;
    openedAt(teamId: string, userId: string): Promise<number | undefined>;
  };
  /**
   * Orchestration descendants of tracked runs waiting for approval: a thread is told once
   * per BLOCKED episode of each, whichever replica sees it. Joins the caller's transaction.
   */
  blockedDescendants: {
    /** True when this starts a BLOCKED episode of `runId` (new, or its last one ended). */
    enter(runId: string, ancestorRunId: string, at: number): Promise<boolean>;
    /** These descendants are no longer BLOCKED: their next BLOCKED state is a new episode. */
    leave(runIds: readonly string[], at: number): Promise<void>;
  };
  inboxQueue: {
    /**
     * Claim up to `limit` pending triggers that are due, at most one per thread, never for a
     * thread that has a claimed item whose lease is still live, oldest first per thread. The
     * claim is a lease: a crashed process's items come back after `leaseMs`.
     */
    claim(now: number, leaseMs: number, limit: number): Promise<InboxItem[]>;
    /**
     * Extend the lease of a claimed trigger that is still being handled (a slow create must
     * not let another worker take it again). False when it is no longer claimed.
     */
    renew(id: number, leaseUntil: number, now: number): Promise<boolean>;
    /** Pending + processing rows (for /metrics and drain). */
    depth(): Promise<number>;
  };
  outboxQueue: {
    /**
     * Claim due notifications, at most one per thread (order per thread is kept), as a lease.
     * `filter.threadKeyPrefix` (e.g. `slack:`) claims only one platform's notifications, so a
     * slow platform never holds up another's. Each lane (`filter.lane`; both when absent)
     * keeps its own order per thread: a member's notice never waits behind a refusal queued
     * in the same thread.
     */
    claim(
      now: number,
      leaseMs: number,
      limit: number,
      filter?: { threadKeyPrefix?: string; lane?: 'normal' | 'low' },
    ): Promise<OutboxItem[]>;
    delivered(id: number, now: number): Promise<void>;
    retryLater(id: number, at: number, error: string): Promise<void>;
    /** Give up on a claimed notification; the attempt that failed counts in `attempts`. */
    park(id: number, error: string, now: number): Promise<void>;
    depth(): Promise<number>;
    /** Delivered, parked and pending rows, for tests and the demo. */
    list(filter?: { threadKey?: string; status?: OutboxStatus }): Promise<OutboxItem[]>;
  };
  /** What the operator's console reads and does (listing, history, Retry/Discard). */
  operator?: OperatorQueries;
  /**
   * Named leases shared by the replicas on one database (the tracker's cycle): one holder at
   * a time, taken or renewed in one statement.
   */
  leases: {
    /**
     * Take or renew `name` for `holder` until `now + ttlMs`: only when free, expired, or
     * already `holder`'s. Undefined when another holder's lease is live. `epoch` changes
     * whenever the lease changes hands.
     */
    acquire(
      name: string,
      holder: string,
      now: number,
      ttlMs: number,
    ): Promise<{ epoch: number } | undefined>;
    /** Give the lease up now (a clean shutdown), if `holder` holds it. */
    release(name: string, holder: string): Promise<void>;
    /** Who holds `name` at `now`, if anyone. */
    holder(
      name: string,
      now: number,
    ): Promise<{ holder: string; epoch: number; until: number } | undefined>;
  };
  /** Platform app installations (Slack OAuth, any number of workspaces). */
  installations: InstallationRepo;
  /** The console's sessions, kept server-side (console-sessions.ts). */
  consoleSessions?: ConsoleSessionRepo;
  /** One-time values already used (OAuth `state` of sign-in and install). */
  usedOnce?: UsedOnceRepo;
  /** GitHub logins named in the console's settings, pinned to their account ids. */
  loginPins?: LoginPinRepo;
  /** Cheap liveness check for /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
