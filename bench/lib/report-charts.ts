/** The SVG charts of a BenchResults: latency against load, and tracking cost and delay against N. */
import type { BenchResults } from './results.js';
import type { Summary } from './stats.js';
import { lineChart } from './svg-chart.js';
import type { TrackingResult } from '../scenarios/tracking.js';

export function renderCharts(results: BenchResults): Record<string, string> {
  const charts: Record<string, string> = {};
  const ingest = results.scenarios.ingest?.result;
  if (ingest) {
    const ours = [
      ...ingest.rows.map((r) => ({ rate: r.rate, s: r.ours })),
      ...ingest.max.ladder.map((p) => ({ rate: p.rate, s: p.latency.all })),
    ];
    const floor = [
      ...ingest.rows.map((r) => ({ rate: r.rate, s: r.floor })),
      ...(ingest.max.floorAtMax
        ? [{ rate: ingest.max.floorAtMax.rate, s: ingest.max.floorAtMax.latency.all }]
        : []),
    ];
    const pts = (xs: { rate: number; s: Summary }[], k: 'p50' | 'p99') =>
      xs.map((x) => [x.rate, x.s[k]] as [number, number]);
    charts['bench-ingest.svg'] = lineChart({
      title: 'Ingest: acknowledgement latency against offered load',
      xLabel: 'offered events per second (half Slack, half GitHub)',
      yLabel: 'latency ms',
      logY: true,
      series: [
        { name: 'agent-relay p99', points: pts(ours, 'p99') },
        { name: 'agent-relay p50', points: pts(ours, 'p50'), dashed: true },
        { name: 'bare floor p99', points: pts(floor, 'p99') },
        { name: 'bare floor p50', points: pts(floor, 'p50'), dashed: true },
      ],
    });
  }
  const tracking = results.scenarios.tracking?.result;
  if (tracking) {
    const by = (mode: string, f: (x: TrackingResult['runs'][number]) => number) =>
      tracking.runs.filter((x) => x.mode === mode).map((x) => [x.n, f(x)] as [number, number]);
    charts['bench-tracking-requests.svg'] = lineChart({
      title: 'Tracking: requests per minute to the Agent Run Service',
      xLabel: 'live runs tracked (N)',
      yLabel: 'requests per minute',
      logY: true,
      logX: true,
      series: [
        { name: 'batch tracker', points: by('batch', (x) => x.requestsPerMinute) },
        { name: 'per-run polling', points: by('per-run', (x) => x.requestsPerMinute) },
        { name: 'per-run, no back-off', points: by('per-run-fixed', (x) => x.requestsPerMinute) },
        { name: 'target (N=1k): 60', points: [[1000, 60]] },
      ],
    });
    charts['bench-tracking-delay.svg'] = lineChart({
      title: 'Tracking: state change → message delay',
      xLabel: 'live runs tracked (N)',
      yLabel: 'seconds',
      logX: true,
      series: [
        { name: 'batch p95', points: by('batch', (x) => (x.delay.p95 ?? NaN) / 1000) },
        {
          name: 'batch p50',
          points: by('batch', (x) => (x.delay.p50 ?? NaN) / 1000),
          dashed: true,
        },
        { name: 'per-run p95', points: by('per-run', (x) => (x.delay.p95 ?? NaN) / 1000) },
        {
          name: 'per-run p50',
          points: by('per-run', (x) => (x.delay.p50 ?? NaN) / 1000),
          dashed: true,
        },
        {
          name: 'no back-off p95',
          points: by('per-run-fixed', (x) => (x.delay.p95 ?? NaN) / 1000),
        },
        { name: 'target (N=1k): 5 s', points: [[1000, 5]] },
      ],
    });
  }
  const scaleout = results.scenarios.scaleout?.result;
  if (scaleout && !scaleout.skipped && scaleout.tracking.length > 0) {
    const rows = scaleout.tracking;
    const pts = (f: (t: (typeof rows)[number]) => number) =>
      rows.map((t) => [t.replicas, f(t)] as [number, number]);
    const one = rows.find((t) => t.replicas === 1)?.requestsPerMinute;
    charts['bench-scaleout.svg'] = lineChart({
      title: `Scale-out: tracking ${rows[0]?.n ?? ''} live runs, requests per minute`,
      xLabel: 'replicas on one PostgreSQL',
      yLabel: 'requests per minute to the service',
      series: [
        { name: 'all replicas together', points: pts((t) => t.requestsPerMinute) },
        ...(one === undefined
          ? []
          : [{ name: '1.1 × one replica', points: pts(() => one * 1.1), dashed: true }]),
      ],
    });
    charts['bench-scaleout-delay.svg'] = lineChart({
      title: 'Scale-out: state change → message delay',
      xLabel: 'replicas on one PostgreSQL',
      yLabel: 'seconds',
      series: [
        { name: 'p95', points: pts((t) => (t.delay.p95 ?? NaN) / 1000) },
        { name: 'p50', points: pts((t) => (t.delay.p50 ?? NaN) / 1000), dashed: true },
      ],
    });
  }
  return charts;
}
