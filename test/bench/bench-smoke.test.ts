/**
 * The benchmark's quick mode, end to end, as a smoke test: every scenario runs against the
 * real service process, prints its table, and writes JSON, Markdown and SVG. Structure
 * only: no figure is asserted (these machines are too noisy for timing assertions).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { BenchResults } from '../../bench/lib/results.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'bench-smoke-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function runQuickBench(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/run.ts', '--quick', '--results-dir', dir],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

const isNumberOrNull = (v: unknown) => typeof v === 'number' || v === null;

describe('npm run bench -- --quick', () => {
  it('runs every scenario and writes tables, JSON and charts', { timeout: 400_000 }, async () => {
    const { code, stdout, stderr } = await runQuickBench();
    expect(code, stderr).toBe(0);
    for (const heading of [
      '### Ingest: acknowledgement latency',
      '### End to end: trigger → first status message',
      '### Tracking: cost and delay',
      '### Footprint',
      '### First sign: what a person sees while the service is slow to create',
      '### Floor: CPU per mention and capacity against a bare app',
      '### Linear: webhook → first activity while the service is slow to create',
      '### Targets',
    ]) {
      expect(stdout).toContain(heading);
    }
    expect(stdout).toMatch(/^\| offered\/s \| floor p50 ms \|/m);
    expect(stdout).toMatch(/^\| live runs \| mode \| req\/min \|/m);

    const latest = JSON.parse(readFileSync(join(dir, 'quick-latest.json'), 'utf8')) as BenchResults;
    expect(latest.schema).toBe(2);
    const { ingest, tracking, footprint, e2e } = latest.scenarios;
    expect(ingest?.quick).toBe(true);
    expect(ingest?.machine.cpus).toBeGreaterThan(0);
    const row = ingest?.result.rows[0];
    expect(row?.rate).toBe(100);
    for (const s of [row?.floor, row?.ours]) {
      expect(s && [s.p50, s.p95, s.p99].every(isNumberOrNull)).toBe(true);
    }
    expect(ingest?.result.phases.map((p) => p.target).sort()).toEqual(['floor', 'ours']);
    expect(ingest?.result.phases.every((p) => p.sent > 0)).toBe(true);

    expect(e2e?.result.rows.map((r) => `${r.rate}/${r.mix}`)).toEqual(['100/both', '100/slack']);

    // The floor: both subjects ran, did their work (first messages and runs) and used CPU.
    const floor = latest.scenarios.floor?.result;
    expect(floor?.rows.map((r) => r.subject)).toEqual(['bare', 'relay']);
    for (const r of floor?.rows ?? []) expect(r.cpuMsPerMention).toBeGreaterThan(0);
    expect(floor?.cpuRatio).toBeGreaterThan(0);
    expect(floor?.ladder.map((l) => l.subject)).toEqual(['bare', 'relay']);
    expect(floor?.ladder.every((l) => l.rungs.length > 0)).toBe(true);
    expect(e2e?.result.rows[0]?.slackAccepted).toBeGreaterThan(0);

    const runs = tracking?.result.runs ?? [];
    expect(runs.map((r) => `${r.n}/${r.mode}`)).toEqual([
      '20/batch',
      '20/per-run',
      '100/batch',
      '100/per-run',
      '100/batch-progress-off',
      '100/per-run-fixed',
    ]);
    for (const r of runs) {
      // Per-run polling as shipped starts from a steady state in which each run is looked at
      // every 30 s (seeded, deterministic offsets), so in a few-second quick window it may
      // rightly send nothing; the other modes poll on every cycle and must show requests.
      if (r.mode === 'per-run') expect(r.requestsPerMinute).toBeGreaterThanOrEqual(0);
      else expect(r.requestsPerMinute).toBeGreaterThan(0);
      expect(isNumberOrNull(r.delay.p95)).toBe(true);
      // Reads of what the agent did are counted apart from the states' cost; without the
      // progress poller (per-run modes read no progress in a quick window, progress off none
      // at all) they are only the final words: at most one per change.
      expect(r.progressPerMinute + r.statePerMinute).toBeCloseTo(r.requestsPerMinute, 6);
      if (r.mode !== 'batch') {
        expect((r.progressPerMinute * r.windowMs) / 60_000).toBeLessThanOrEqual(r.changes);
      }
    }

    const first = latest.scenarios['first-sign'];
    expect(first?.result.rows.map((r) => r.createLatencyMs)).toEqual([0, 1_000]);
    for (const r of first?.result.rows ?? []) {
      expect(r.accepted).toBeGreaterThan(0);
      expect([r.ack.p99, r.floor.p99, r.seen.p95, r.firstMessage.p95].every(isNumberOrNull)).toBe(
        true,
      );
      // One run of each latency (quick), against the floor runs before and after it together.
      expect(r.repeats).toBe(1);
      expect(r.ackRatios).toHaveLength(1);
      expect(r.floor.n).toBeGreaterThan(r.ack.n);
    }

    const linear = latest.scenarios['linear-first'];
    expect(linear?.result.rows.map((r) => r.createLatencyMs)).toEqual([0, 1_000]);
    for (const r of linear?.result.rows ?? []) {
      // Every session answered and thought first; how fast is not asserted (a noisy machine).
      expect(r.sent).toBeGreaterThan(0);
      expect(r.accepted).toBe(r.sent);
      expect(r.delivered).toBe(r.sent);
      expect(r.firstKinds).toEqual(['thought']);
      expect(isNumberOrNull(r.firstActivity.p99)).toBe(true);
    }

    expect(footprint?.result.threads).toBe(500);
    expect(footprint?.result.held[0]?.rssBytes).toBeGreaterThan(0);
    expect(footprint?.result.ready.map((r) => r.database)).toEqual(['empty', 'seeded']);

    for (const chart of [
      'quick-bench-ingest.svg',
      'quick-bench-tracking-requests.svg',
      'quick-bench-tracking-delay.svg',
    ]) {
      expect(readFileSync(join(dir, chart), 'utf8')).toMatch(/^<svg [\s\S]*<\/svg>\n$/);
    }
    expect(existsSync(join(dir, 'quick-latest.md'))).toBe(true);
  });
});
