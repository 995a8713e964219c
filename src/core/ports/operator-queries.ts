/**
 * What the operator's console reads and does in the store: runs listed with filters, a run's
 * state history and the queue items that concerned its thread, the queues' health, and Retry
 * or Discard of notifications given up on (parked) and triggers that failed. Read-mostly: the
 * only writes are the four actions, each on one row in its given-up status.
 */
import type { Platform } from '../trigger.js';
import type { InboxItem, OutboxItem, RunRecord } from './store-records.js';

export interface RunFilter {
  state?: string;
  platform?: Platform;
  /** A thread key, or its leading part (`slack:T1:C1`, `github:acme/app`). */
  place?: string;
  /** A requester id or name (exact id, or a name containing it, case-insensitive). */
  person?: string;
  /** Runs created before this (epoch ms), for paging; newest first. */
  createdBefore?: number;
  /** `cost`: by the last reported cost, highest first, runs without one last (else newest first). */
  sort?: 'cost';
  /** Rows to skip, for paging a listing sorted by cost. */
  offset?: number;
  limit: number;
}

/** What the runs of one thread created since a moment cost (a place is a set of threads). */
export interface ThreadSpend {
  threadKey: string;
  /** The sum of the reported costs (approximate US dollars); 0 when none reported one. */
  spentUsd: number;
  /** The runs created there since the moment, with or without a reported cost. */
  runs: number;
  /** Of those, the runs that reported a cost. */
  costed: number;
}

export interface StateChange {
  state: string;
  /** Epoch ms (the relay's clock) when the relay recorded it. */
  at: number;
}

export interface QueueHealth {
  inbox: { waiting: number; processing: number; failed: number; oldestWaitingAt?: number };
  outbox: { waiting: number; parked: number; oldestWaitingAt?: number };
}

export type GivenUpKind = 'notification' | 'trigger';

export interface OperatorQueries {
  listRuns(filter: RunFilter): Promise<RunRecord[]>;
  /** The runs created at or after `since` (epoch ms) and their cost, summed per thread key. */
  spendByThread(since: number): Promise<ThreadSpend[]>;
  stateHistory(runId: string): Promise<StateChange[]>;
  /** Triggers and notifications of these threads (a run's key and its aliases), newest first. */
  threadItems(
    threadKeys: readonly string[],
    limit: number,
  ): Promise<{ triggers: InboxItem[]; notifications: OutboxItem[] }>;
  /**
   * The trigger a run was started by, found by the run's request id (`<platform>:<delivery
   * id>`): a slash command's trigger lives under the channel, not the run's thread.
   */
  triggerOfRequest(requestId: string): Promise<InboxItem | undefined>;
  /** Every key that resolves to `threadKey` (its aliases), the key itself included. */
  aliasesOf(threadKey: string): Promise<string[]>;
  queueHealth(): Promise<QueueHealth>;
  parkedNotifications(limit: number): Promise<OutboxItem[]>;
  failedTriggers(limit: number): Promise<InboxItem[]>;
  /**
   * Put a parked notification or a failed trigger back in its queue (due now, attempts
   * reset); false when no such item is in that given-up status any more.
   */
  retry(kind: GivenUpKind, id: number, now: number): Promise<boolean>;
  /** Delete a parked notification or a failed trigger; false when it is not (any more). */
  discard(kind: GivenUpKind, id: number): Promise<boolean>;
  /** A short string that changes whenever runs or queue items change (live updates). */
  changeStamp(): Promise<string>;
}
