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
  | 'stops'
  | 'outbox_delivery_failures'
  | 'outbox_delivered'
  | 'outbox_superseded'
  | 'console_actions'
  | 'claiming_paused'
  | 'triggers_deferred'
  | 'budget_refusals'
  | 'run_cost_usd'
  | 'run_tokens';
export type HistogramName =
  'tracker_cycle_seconds' | 'state_change_to_notification_seconds' | 'trigger_to_ack_seconds';
export type GaugeName =
  | 'live_runs_tracked'
  | 'outbox_depth'
  | 'inbox_depth'
  | 'outbox_parked'
  | 'inbox_failed'
  | 'outbox_oldest_waiting_seconds'
  | 'inbox_oldest_waiting_seconds'
  | 'tracker_lease_held'
  | 'claiming_paused_seconds'
  | 'place_budget_used_ratio';
export interface Metrics {
  inc(name: CounterName, labels?: Record<string, string>, value?: number): void;
  observe(name: HistogramName, seconds: number, labels?: Record<string, string>): void;
  set(name: GaugeName, value: number, labels?: Record<string, string>): void;
}
export const noopMetrics: Metrics = { inc() {}, observe() {}, set() {} };
