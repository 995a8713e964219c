/**
 * The records the store keeps (threads, runs, the inbox's triggers, the outbox's
 * notifications, settings, "Starting…" messages), as the rest of the relay sees them. The
 * operations on them are the store port (store.ts).
 */
import type {
  MessageModel,
  AppliedSetting,
  OptionKey,
  ReactionName,
} from '../message/message-model.js';
import type { MessageRef, Platform, Trigger } from '../trigger.js';

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
  /**
   * The spending limit now (US dollars): the run's `cap` at first, one more cap for each
   * Continue. Absent: no cap.
   */
  capUsd?: number;
  /** What the run waits on a person for, or what they last decided (review.ts). */
  review?: ReviewRecord;
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

/**
 * A question put to people about a run, bound to one version: its plan to approve (or change,
 * or cancel), or its going on past its spending cap. A press of a button names the version
 * it was shown with; an older one, or one already answered, does nothing.
 */
export interface ReviewRecord {
  /** `action`: a BLOCKED run waits to have one action approved (its last, unanswered act). */
  kind: 'plan' | 'cap' | 'action';
  /** Counts every question put about the run, plans and caps alike, from 1. */
  version: number;
  /**
   * `open` while it waits; otherwise what was decided (`closed`: the run moved on without an
   * answer through the relay, a cancel elsewhere say).
   */
  status:
    'open' | 'approved' | 'rejected' | 'changes' | 'cancelled' | 'continued' | 'stopped' | 'closed';
  /** Who decided, when someone did. */
  decidedBy?: string;
}

/**
 * `deferred`: its first sign is out and it waits, unclaimed, for room on the service lane
 * (docs/decisions/first-sign-lane.md); it still holds its thread's place.
 */
export type InboxStatus = 'pending' | 'processing' | 'deferred' | 'done' | 'failed';
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
  /** Taken from the deferred line (`inboxQueue.claimDeferred`): its create goes ahead now. */
  resumed?: true;
}

/**
 * A run's thread as a platform's agent session shows it: `processing` while the agent works,
 * `suspended` while it waits for input (BLOCKED, interrupted), `active` when it ended and a
 * reply continues it, `closed` when it was cancelled.
 */
export type SessionStatus = 'processing' | 'suspended' | 'active' | 'closed';

export type OutboxKind = 'post' | 'status' | 'react' | 'session' | 'keep_alive';
export interface OutboxPayload {
  kind: OutboxKind;
  destination: Destination;
  /** For 'post' and 'status'. */
  message?: MessageModel;
  /** For 'status': the run whose single status message is posted or edited. */
  runId?: string;
  /**
   * For 'status' without `runId`: the request whose status message ("Starting…", posted
   * before the run existed) is posted or edited (`StoreTx.startMessages`). Beside `runId`
   * (the run's first status): the request it was created for.
   */
  requestId?: string;
  /**
   * For 'session': the status the thread's agent session is set to (Slack agent sessions).
   * A 'keep_alive' (a quiet working session's "still working" line) carries only its
   * destination.
   */
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
  /**
   * Set on a claimed item only: the payload of the notification queued next behind it in its
   * thread (and lane) when it was claimed, `null` when there was none. Absent: not known
   * (`outboxQueue.next` looks).
   */
  next?: OutboxPayload | null;
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

/** Where a notification goes. `threadKey` names the thread; the rest is optional detail. */
export interface Destination {
  threadKey: string;
  /** Answer only this user (Slack ephemeral). */
  privateTo?: string;
  /**
   * With `privateTo`: the slash command's `response_url`, tried first for the private answer
   * (the notifier falls back to its usual private post when it is used up or expired).
   * Without it (a slash command's public status message): where to tell the caller privately
   * that the bot may not post in that channel.
   */
  responseUrl?: string;
}
