/**
 * Kysely table types. Portable across SQLite and PostgreSQL: times are epoch-ms integers
 * (`bigint` columns; PostgreSQL returns them as strings, so row mapping converts with
 * `Number`), booleans are 0/1 integers, and structured values are JSON stored as TEXT.
 */
import type { ColumnType, Generated } from 'kysely';

/** Epoch milliseconds. PostgreSQL's `bigint` arrives as a string; see row-mapping.ts. */
type Millis = number;
type Flag = 0 | 1;

export interface ThreadsTable {
  thread_key: string;
  platform: string;
  current_run_id: string | null;
  started_by: string | null;
  created_at: Millis;
  updated_at: Millis;
}

export interface ThreadAliasesTable {
  alias_key: string;
  thread_key: string;
}

export interface RunsTable {
  run_id: string;
  thread_key: string;
  platform: string;
  request_id: string;
  /** JSON: `{ id, name? }`. */
  requester: string;
  title: string;
  state: string;
  service_updated_at: string | null;
  /** JSON: `AppliedSetting[]`. */
  applied: string;
  /** JSON: `{ uid, alias?, name? }`. */
  factory: string | null;
  /** JSON: `MessageRef`. */
  trigger_message: string | null;
  /** JSON: `MessageRef`. */
  status_message: string | null;
  notified_state: string | null;
  /** Run time of the executions before the current one (ms); null: none. */
  earlier_run_ms: Millis | null;
  /** The service's last reported cost, in whole micro-dollars; null: not reported. */
  cost_micro_usd: number | null;
  /** The service's last reported token total; null: not reported. */
  total_tokens: number | null;
  /** The requester's platform id (the `requester` JSON's `id`); null on rows written before. */
  requester_id: string | null;
  /** The spending limit now, in whole micro-dollars; null: no cap (migration 017). */
  cap_micro_usd: number | null;
  /** JSON: `ReviewRecord`; null: no question put (migration 017). */
  review: string | null;
  next_check_at: Millis;
  check_interval_ms: number;
  tracked: Flag;
  created_at: Millis;
  updated_at: Millis;
}

export interface InboxTable {
  id: Generated<number>;
  delivery_id: string;
  thread_key: string;
  /** JSON: the `Trigger`. */
  trigger: string;
  status: string;
  attempts: number;
  next_attempt_at: Millis;
  /** Set while claimed; another worker (or replica) leaves the item alone until then. */
  lease_until: Millis | null;
  wait_notice_sent: Flag;
  /**
   * 1: the item starts a thread of its own (it anchors a new thread) and waits only behind
   * the other items of its key, not behind that key's other own-lane items; 0: it waits
   * behind every older open item of its key.
   */
  own_lane: Flag;
  last_error: string | null;
  created_at: Millis;
  updated_at: Millis;
}

export interface OutboxTable {
  id: Generated<number>;
  thread_key: string;
  /** JSON: the `OutboxPayload`. */
  payload: string;
  status: string;
  attempts: number;
  next_attempt_at: Millis;
  lease_until: Millis | null;
  last_error: string | null;
  created_at: Millis;
  updated_at: Millis;
  /** 1: the refusals' lane, delivered behind everything else (migration 009). */
  low_priority: Generated<number>;
}

export interface SettingsTable {
  scope: string;
  key: string;
  value: string;
  updated_by: string | null;
  updated_at: Millis;
}

/** One state a run was recorded in (its history, for the operator's console). */
export interface RunStatesTable {
  id: Generated<number>;
  run_id: string;
  state: string;
  at: Millis;
}

/** A named lease (one row per name): who holds it, until when, and how often it moved. */
export interface LeasesTable {
  name: string;
  holder: string;
  epoch: number;
  lease_until: Millis;
}

export interface InstallationsTable {
  platform: string;
  /** '' when none. */
  enterprise_id: string;
  /** '' for an organisation-wide install. */
  team_id: string;
  is_enterprise_install: Flag;
  /** The installation, sealed by the platform side (never a token in clear). */
  sealed: string;
  installed_by: string | null;
  created_at: Millis;
  updated_at: Millis;
}

export interface InstallationTeamsTable {
  platform: string;
  team_id: string;
  enterprise_id: string;
  updated_at: Millis;
}

/** A run's status message posted before the run existed, by request id (migration 004). */
export interface StartMessagesTable {
  request_id: string;
  thread_key: string;
  /** JSON: `MessageRef`, once posted. */
  message: string | null;
  created_at: Millis;
}

/** Who was refused where, and when last told (migration 009). */
export interface RefusalsTable {
  thread_key: string;
  person: string;
  told_at: Millis;
}

/** A console session (migration 010): the token's hash, who, which role, until when. */
export interface ConsoleSessionsTable {
  id: string;
  operator_id: string;
  operator_name: string;
  via: string;
  role: string;
  grounds: string;
  csrf: string;
  created_at: Millis;
  expires_at: Millis;
}

/** A one-time value already used, kept until it could no longer be used anyway. */
export interface UsedOnceTable {
  key: string;
  expires_at: Millis;
}

/** A GitHub login of the console's settings and the account id it first signed in with. */
export interface LoginPinsTable {
  login: string;
  user_id: string;
  created_at: Millis;
}

/** Who has the Slack App Home tab open, and since when (migration 011). */
export interface HomeViewersTable {
  team_id: string;
  user_id: string;
  opened_at: Millis;
}

/** Descendants of tracked runs and whether a BLOCKED episode of theirs is open (migration 014). */
export interface BlockedDescendantsTable {
  run_id: string;
  ancestor_run_id: string;
  blocked: Flag;
  updated_at: Millis;
  /** The episode's number, binding its answers (migration 018). */
  version: ColumnType<number, number | undefined, number>;
  /** What was decided on the episode's question (null: nothing yet). */
  review_status: string | null;
  decided_by: string | null;
}

/** The platform ids of reactions the relay added (migration 012). */
export interface ReactionIdsTable {
  thread_key: string;
  message_id: string;
  content: string;
  reaction_id: string;
  added_at: Millis;
}

/** What the Linear notifier remembers of each agent session, for every replica (migration 016). */
export interface LinearSessionsTable {
  thread_key: string;
  working: Flag;
  last_written_at: Millis;
  keep_alive_until: Millis;
  stopped: Flag;
  updated_at: Millis;
}

export interface Database {
  threads: ThreadsTable;
  thread_aliases: ThreadAliasesTable;
  runs: RunsTable;
  inbox: InboxTable;
  outbox: OutboxTable;
  settings: SettingsTable;
  run_states: RunStatesTable;
  home_viewers: HomeViewersTable;
  blocked_descendants: BlockedDescendantsTable;
  reaction_ids: ReactionIdsTable;
  linear_sessions: LinearSessionsTable;
  leases: LeasesTable;
  installations: InstallationsTable;
  installation_teams: InstallationTeamsTable;
  start_messages: StartMessagesTable;
  refusals: RefusalsTable;
  console_sessions: ConsoleSessionsTable;
  used_once: UsedOnceTable;
  login_pins: LoginPinsTable;
}

export type DatabaseKind = 'sqlite' | 'postgres';
