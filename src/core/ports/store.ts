/**
 * The store port: the operations on the records the relay keeps (store-records.ts), inside or
 * outside one transaction, in pieces by reader: the runs' records (`RunStore`), the work
 * queues and leases (`QueueStore`), what the platforms keep (`PlatformStateStore`), the
 * console (`ConsoleStore`) and upkeep (`MaintenanceStore`). `Store` is all of them; a consumer
 * asks for the piece it uses. store/ implements every member on SQLite and PostgreSQL; its
 * contract tests run against both.
 */
import type { OptionKey } from '../message/message-model.js';
import type { MessageRef, Trigger } from '../trigger.js';
import type { ConsoleSessionRepo, LoginPinRepo, UsedOnceRepo } from './console-sessions.js';
import type { InstallationRepo } from './installations.js';
import type { LinearSessions } from './linear-sessions.js';
import type { OperatorQueries } from './operator-queries.js';
import type { ReactionIds } from './reaction-ids.js';
import type {
  InboxItem,
  OutboxItem,
  OutboxPayload,
  OutboxStatus,
  RunRecord,
  SettingRecord,
  StartMessageRecord,
  ThreadRecord,
  TrackedBrief,
} from './store-records.js';

export type * from './store-records.js';

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
    /**
     * Runs whose cost is not known yet, of those whose thread key starts with `threadKeyPrefix`,
     * created at or after `since` (only `requesterId`'s when given): still tracked and not
     * settled in an ended or BLOCKED state whose outcome the relay has told (a follow-up makes
     * a settled run's cost unknown again). At most `limit`, newest first.
     */
    unknownCostSince(
      threadKeyPrefix: string,
      since: number,
      options: { requesterId?: string; limit: number },
    ): Promise<RunRecord[]>;
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
    /**
     * Step back from a claimed trigger whose first sign is out, to wait for room on the service
     * lane without holding a worker: unclaimed, attempts unchanged, its thread's place kept.
     */
    defer(id: number, now: number): Promise<void>;
  };
  outbox: {
    enqueue(payload: OutboxPayload, now: number): Promise<number>;
  };
  refusals: {
    /**
     * Note that `person` is refused in `threadKey` now, unless they were told there within
     * `windowMs`: true when this refusal is to be told (and is now remembered), false when
     * it was told recently. Entries older than the window are forgotten as it goes. With
     * `place`: also false once `place.max` refusals were told within the window in the place
     * (thread keys starting with `place.prefix`), so a crowd of outsiders costs the place a
     * bounded number of posts, then silence.
     */
    note(
      threadKey: string,
      person: string,
      now: number,
      windowMs: number,
      place?: { prefix: string; max: number },
    ): Promise<boolean>;
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
  /**
   * The Linear sessions' memory (also `PlatformStateStore.linearSessions`): in a transaction,
   * a run's change and its session's working state are committed together, and the session
   * keeper's claim with the keep-alive it queues.
   */
  linearSessions: LinearSessions;
}

/** The runs' records: what the use cases and the tracker read and write. */
export interface RunStore extends StoreTx {
  /** Run `fn` in one transaction; everything it wrote is committed together or not at all. */
  transaction<T>(fn: (tx: StoreTx) => Promise<T>): Promise<T>;
  /**
   * Orchestration descendants of tracked runs waiting for approval: a thread is told once
   * per BLOCKED episode of each, whichever replica sees it. Joins the caller's transaction.
   */
  blockedDescendants: {
    /** True when this starts a BLOCKED episode of `runId` (new, or its last one ended). */
    enter(runId: string, ancestorRunId: string, at: number): Promise<boolean>;
    /** These descendants are no longer BLOCKED: their next BLOCKED state is a new episode. */
    leave(runIds: readonly string[], at: number): Promise<void>;
    /** A descendant's record: its ancestor, its episode's number and what was answered. */
    get(runId: string): Promise<BlockedDescendantRecord | undefined>;
    /**
     * Record the answer to episode `version` of `runId`: true only when that episode is
     * still blocked and unanswered (a stale or repeated answer changes nothing).
     */
    answer(runId: string, version: number, status: string, decidedBy: string): Promise<boolean>;
  };
}

/** A blocked descendant of a tracked run (see `blockedDescendants`). */
export interface BlockedDescendantRecord {
  runId: string;
  ancestorRunId: string;
  blocked: boolean;
  version: number;
  /** `approved` / `rejected` once answered; absent while nothing was. */
  status?: string;
  decidedBy?: string;
}

/** The work queues and the leases the replicas share: what the workers claim. */
export interface QueueStore {
  inboxQueue: {
    /**
     * Claim up to `limit` pending triggers that are due, at most one per thread, never for a
     * thread that has a claimed item whose lease is still live, oldest first per thread. The
     * claim is a lease: a crashed process's items come back after `leaseMs`.
     */
    claim(now: number, leaseMs: number, limit: number): Promise<InboxItem[]>;
    /**
     * Claim up to `limit` deferred triggers, the oldest request first, as `claim` does (a
     * lease); each comes back marked `resumed`.
     */
    claimDeferred(now: number, leaseMs: number, limit: number): Promise<InboxItem[]>;
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
    /**
     * The pending notification that follows `item` in its thread and lane (the one delivered
     * next there), if any: a status edit it makes moot is not sent.
     */
    next(item: Pick<OutboxItem, 'id' | 'threadKey' | 'payload'>): Promise<OutboxItem | undefined>;
    depth(): Promise<number>;
    /** Delivered, parked and pending rows, for tests and the demo. */
    list(filter?: { threadKey?: string; status?: OutboxStatus }): Promise<OutboxItem[]>;
  };
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
}

/** What the platforms keep, for every replica. */
export interface PlatformStateStore {
  /** Platform app installations (Slack and Linear OAuth, any number of workspaces). */
  installations: InstallationRepo;
  /**
   * Who opened the Slack App Home tab, and when last: shared by the replicas, so any of them
   * that sees a person's run change refreshes their tab.
   */
  homeViewers: {
    opened(teamId: string, userId: string, at: number): Promise<void>;
    openedAt(teamId: string, userId: string): Promise<number | undefined>;
  };
  /** The platform ids of the reactions the relay added (migration 012). */
  reactionIds: ReactionIds;
  /** What is remembered of each Linear agent session, for every replica (migration 016). */
  linearSessions: LinearSessions;
  /** One-time values already used (the OAuth `state` of an install). */
  usedOnce: UsedOnceRepo;
}

/** What the operator's console reads and keeps. */
export interface ConsoleStore {
  /** What the operator's console reads and does (listing, history, Retry/Discard). */
  operator: OperatorQueries;
  /** The console's sessions, kept server-side (console-sessions.ts). */
  consoleSessions: ConsoleSessionRepo;
  /** One-time values already used (the OAuth `state` of a sign-in). */
  usedOnce: UsedOnceRepo;
  /** GitHub logins named in the console's settings, pinned to their account ids. */
  loginPins: LoginPinRepo;
}

/** Upkeep: start-up, retention, deadlines, the clock replicas share, health, closing. */
export interface MaintenanceStore {
  /**
   * Release every inbox/outbox claim (lease) at once, at start-up, so work a crashed
   * process held is taken again now rather than when its lease runs out. Only for a
   * database no other replica shares (SQLite): a live replica's claims would be taken too.
   * An inbox item goes back to pending with its interrupted attempt counted.
   */
  releaseLeases(now: number): Promise<{ inbox: number; outbox: number }>;
  /**
   * Delete up to `limit` finished inbox items (done, failed) and as many finished
   * notifications (delivered, parked) last touched before `before`, and as many records of
   * "Starting…" messages made before `before`. Pending and claimed work is never touched.
   */
  pruneFinished(
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
  pruneRuns(
    before: number,
    limit: number,
  ): Promise<{ runs: number; threads: number; blockedDescendants: number }>;
  /**
   * Run `fn`'s store calls under a deadline: after `ms` it rejects with a retryable `busy`
   * error, and none of its statements starts later (so nothing lands after the caller was
   * told it failed). For requests that must be answered in time (Slack's 3 s). Where the
   * database has a pool of connections (PostgreSQL), such work takes its connection from a few
   * kept for it, never from behind the workers' statements.
   */
  withDeadline<T>(ms: number, fn: () => Promise<T>): Promise<T>;
  /**
   * Whether replicas may share this database (PostgreSQL). Then every replica takes its times,
   * and so every lease decision, from `databaseTime`, so replicas whose clocks disagree never
   * steal or keep one another's leases; and no replica may take back another's claims at
   * start-up. A database only one process uses (SQLite) has the process's clock as its own.
   */
  readonly shared: boolean;
  /** The database's own clock (epoch ms). */
  databaseTime(): Promise<number>;
  /** Cheap liveness check for /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The whole store, as `store/` builds it. */
export interface Store
  extends RunStore, QueueStore, PlatformStateStore, ConsoleStore, MaintenanceStore {}
