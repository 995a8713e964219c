/**
 * Prometheus series (prom-client, one registry per service instance). The core names events
 * through the `Metrics` port; this binds them to counters, histograms and gauges. Labels the
 * core passes that a series does not declare are dropped, never thrown on.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CounterName, GaugeName, HistogramName, Metrics } from '../core/ports/index.js';
import { RelayError } from '../core/relay-error.js';

const PREFIX = 'agent_relay_';
/** Labels a core event may carry (anything else is dropped). */
const EVENT_LABELS = ['platform', 'kind', 'outcome', 'reason', 'code', 'state', 'mode'] as const;
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const DELAY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 20, 30, 60, 120];

/**
 * What runs cost, by platform only. `/metrics` may be open, and a place's id names private
 * channels and direct messages (and private repositories), so no series names a place: the
 * `place` label is kept for the queries written against it and is always `all`. Spend per
 * place is on the console's places page, for whoever may see that place.
 */
export const ALL_PLACES = 'all';
/** At most this many places' shares are kept for the budget gauge's highest. */
const BUDGET_PLACES_KEPT = 10_000;
type PlaceCounterName = 'run_cost_usd' | 'run_tokens';
const PLACE_COUNTERS: Record<PlaceCounterName, string> = {
  run_cost_usd:
    'Approximate cost of runs in US dollars as the Agent Run Service reports it, by platform (place is always "all": no place is named)',
  run_tokens:
    'LLM tokens of runs as the Agent Run Service reports them, by platform (place is always "all")',
};

const COUNTERS: Record<Exclude<CounterName, PlaceCounterName>, string> = {
  triggers_received: 'Triggers accepted from Slack/GitHub, by platform and kind',
  duplicates_dropped: 'Duplicate deliveries acknowledged and dropped',
  runs_created: 'Runs created on the Agent Run Service (including factory dispatches)',
  followups_sent: 'Follow-ups sent to runs',
  cancels: 'Cancel requests sent to runs',
  stops: 'Stops of runs (interrupted, or cancelled when they could not be)',
  outbox_delivered: 'Notifications delivered to Slack/GitHub',
  outbox_delivery_failures: 'Notification delivery attempts that failed',
  outbox_superseded:
    'Status edits not sent because the next notification in the thread edits the same message',
  console_actions: 'Retry/Discard done in the operator console, by kind (action_item) and outcome',
  claiming_paused:
    "Times the service asked to slow down and the triggers' calls to it paused (first signs still go out), by reason (rate_limit: 429, at_capacity)",
  triggers_deferred:
    'Triggers that stepped back to the inbox after their first sign, to wait for room on the service lane',
  budget_refusals:
    'New runs refused because their place reached (or is starting a run near) its monthly budget',
};
const HISTOGRAMS: Record<HistogramName, { help: string; buckets: number[] }> = {
  tracker_cycle_seconds: { help: 'Duration of one tracker cycle', buckets: LATENCY_BUCKETS },
  state_change_to_notification_seconds: {
    help: 'From a run state change being seen to its notification being delivered',
    buckets: DELAY_BUCKETS,
  },
  trigger_to_ack_seconds: {
    help: 'From a trigger arriving to its acknowledgement',
    buckets: LATENCY_BUCKETS,
  },
};
const GAUGES: Record<Exclude<GaugeName, 'place_budget_used_ratio'>, string> = {
  live_runs_tracked: 'Runs the tracker is watching',
  outbox_depth: 'Notifications waiting in the outbox',
  inbox_depth: 'Triggers waiting in the inbox',
  outbox_parked: 'Notifications given up on (parked) and not yet retried, discarded or pruned',
  inbox_failed: 'Triggers that failed for good and are not yet retried, discarded or pruned',
  outbox_oldest_waiting_seconds: 'Age of the oldest notification waiting in the outbox (0: none)',
  inbox_oldest_waiting_seconds: 'Age of the oldest trigger waiting in the inbox (0: none)',
  tracker_lease_held: '1 while this replica holds the tracking lease, else 0',
  claiming_paused_seconds:
    "Seconds left of a pause of the triggers' calls to the service it asked for (0: not paused)",
};

/** What the agent client reports per request (its `onRequest` hook). */
export interface ServiceRequestInfo {
  method: string;
  /** The path template, e.g. `GET /agent/runs/{runId}` (bounded cardinality). */
  route: string;
  status?: number;
  durationMs: number;
  /** The error code (string) or error when no status came back. */
  error?: unknown;
  /** 0 for the first attempt, 1 for the first retry… (not a label: bounded by retries). */
  attempt?: number;
}

export interface RuntimeMetrics {
  registry: Registry;
  /** The `Metrics` port for the core. */
  metrics: Metrics;
  /** Pass as the agent client's `onRequest`. */
  agentRequestHook(info: ServiceRequestInfo): void;
  /** The HTTP server's per-request hook. */
  httpRequestHook(info: {
    route: string;
    method: string;
    status: number;
    durationMs: number;
  }): void;
  /** Read a gauge from `source` at every scrape (e.g. queue depths from the store). */
  gaugeSource(name: GaugeName, source: () => Promise<number>): void;
  /** The Prometheus text exposition. */
  render(): Promise<{ contentType: string; body: string }>;
}

export function createMetrics(options: { defaultMetrics?: boolean } = {}): RuntimeMetrics {
  const registry = new Registry();
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const labelNames = [...EVENT_LABELS];

  const counters = mapValues(
    COUNTERS,
    (help, name) => new Counter({ name: `${PREFIX}${name}_total`, help, labelNames, registers }),
  );
  const placeCounters = mapValues(
    PLACE_COUNTERS,
    (help, name) =>
      new Counter({
        name: `${PREFIX}${name}_total`,
        help,
        labelNames: ['platform', 'place'],
        registers,
      }),
  );
  const budgetShares = new Map<string, Map<string, number>>();
  const budgetRatio = new Gauge({
    name: `${PREFIX}place_budget_used_ratio`,
    help: 'The highest share of its monthly budget any place of the platform has spent this calendar month (UTC), from the reported costs; places with a budget only (place is always "all")',
    labelNames: ['platform', 'place'],
    registers,
  });
  const histograms = mapValues(
    HISTOGRAMS,
    (h, name) => new Histogram({ name: `${PREFIX}${name}`, ...h, labelNames, registers }),
  );
  const sources: Partial<Record<GaugeName, () => Promise<number>>> = {};
  const gauges = mapValues(
    GAUGES,
    (help, name) =>
      new Gauge({
        name: `${PREFIX}${name}`,
        help,
        labelNames,
        registers,
        // A gauge with a source is read at scrape time (e.g. the outbox depth from the store).
        async collect() {
          const source = sources[name];
          // A failing source (database closed) keeps the last value.
          if (source)
            await source().then(
              (v) => this.set(v),
              () => undefined,
            );
        },
      }),
  );
  const serviceRequests = new Counter({
    name: `${PREFIX}service_requests_total`,
    help: 'Requests to the Agent Run Service, by endpoint and status',
    labelNames: ['method', 'endpoint', 'status'],
    registers,
  });
  const serviceLatency = new Histogram({
    name: `${PREFIX}service_request_duration_seconds`,
    help: 'Latency of requests to the Agent Run Service',
    labelNames: ['method', 'endpoint'],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const httpRequests = new Counter({
    name: `${PREFIX}http_requests_total`,
    help: 'HTTP requests served, by route and status',
    labelNames: ['method', 'route', 'status'],
    registers,
  });
  const httpLatency = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'Latency of HTTP requests served',
    labelNames: ['route'],
    buckets: LATENCY_BUCKETS,
    registers,
  });

  const metrics: Metrics = {
    inc: (name, labels, value = 1) => {
      if (name === 'run_cost_usd' || name === 'run_tokens') {
        const platform = labels?.platform ?? 'unknown';
        placeCounters[name].inc({ platform, place: ALL_PLACES }, value);
        return;
      }
      counters[name].inc(pick(labels), value);
    },
    observe: (name, seconds, labels) => histograms[name]?.observe(pick(labels), seconds),
    set: (name, value, labels) => {
      if (name === 'place_budget_used_ratio') {
        const platform = labels?.platform ?? 'unknown';
        const shares = budgetShares.get(platform) ?? new Map<string, number>();
        budgetShares.set(platform, shares);
        const place = labels?.place ?? '';
        if (shares.has(place) || shares.size < BUDGET_PLACES_KEPT) shares.set(place, value);
        budgetRatio.set({ platform, place: ALL_PLACES }, Math.max(...shares.values()));
        return;
      }
      gauges[name].set(pick(labels), value);
    },
  };

  return {
    registry,
    metrics,
    agentRequestHook(info) {
      const endpoint = info.route.slice(0, 80);
      const status = info.status !== undefined ? String(info.status) : errorCode(info.error);
      serviceRequests.inc({ method: info.method, endpoint, status });
      serviceLatency.observe({ method: info.method, endpoint }, info.durationMs / 1000);
    },
    httpRequestHook(info) {
      httpRequests.inc({ method: info.method, route: info.route, status: String(info.status) });
      httpLatency.observe({ route: info.route }, info.durationMs / 1000);
    },
    gaugeSource(name, source) {
      sources[name] = source;
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

function pick(labels: Record<string, string> | undefined): Record<string, string> {
  if (!labels) return {};
  const out: Record<string, string> = {};
  for (const key of EVENT_LABELS) if (labels[key] !== undefined) out[key] = labels[key];
  return out;
}

function errorCode(error: unknown): string {
  if (typeof error === 'string' && error.length > 0) return error.slice(0, 40);
  return error instanceof RelayError ? error.code : 'error';
}

function mapValues<K extends string, V, R>(
  record: Record<K, V>,
  fn: (value: V, key: K) => R,
): Record<K, R> {
  return Object.fromEntries(
    Object.entries(record).map(([k, v]) => [k, fn(v as V, k as K)]),
  ) as Record<K, R>;
}
