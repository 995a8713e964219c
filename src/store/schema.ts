/**
 * Kysely table types. Portable across SQLite and PostgreSQL: times are epoch-ms integers
 * (`bigint` columns; PostgreSQL returns them as strings, so row mapping converts with
 * `Number`), booleans are 0/1 integers, and structured values are JSON stored as TEXT.
 */
import type { Generated } from 'kysely';

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
}

export interface SettingsTable {
  scope: string;
  key: string;
  value: string;
  updated_by: string | null;
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

export interface Database {
  threads: ThreadsTable;
  thread_aliases: ThreadAliasesTable;
  runs: RunsTable;
  inbox: InboxTable;
  outbox: OutboxTable;
  settings: SettingsTable;
  start_messages: StartMessagesTable;
}

export type DatabaseKind = 'sqlite' | 'postgres';
