/**
 * The progress reads' budget with 1,000 running runs, on a hand-driven clock: the real poller,
 * the real store and the real agent client against the emulator. Over five minutes the reads
 * stay within PROGRESS_READS_PER_MINUTE, no run is read twice within its interval, a run
 * someone looked at is read every interval, and the others take turns.
 */
import { describe, expect, it } from 'vitest';
import type { AgentService } from '../../../src/core/ports/index.js';
import { createProgressPoller } from '../../../src/runs/tracker/progress-poller.js';
import { startClockedEnv } from './harness.js';
import { worldPerTest } from '../../helpers/world-per-test.js';

const startEnv = worldPerTest(startClockedEnv);

describe('progress reads of 1,000 running runs', () => {
  it('hold their budget, read the looked-at run every interval and the others in turn', async () => {
    const e = await startEnv();
    const ids = e.emulator.seedRuns(1_000, { state: 'INPROGRESS', manual: true });
    await e.track(ids);
    const reads: { runId: string; at: number }[] = [];
    const details: string[] = [];
    const agent: AgentService = {
      ...e.port,
      getRun: async (runId, o) => {
        details.push(runId);
        return e.agent.getRun(runId, o);
      },
      getConversation: async (runId, o) => {
        reads.push({ runId, at: e.clock.now() });
        return e.agent.getConversation!(runId, o);
      },
    };
    const poller = createProgressPoller({
      store: e.store,
      agent,
      clock: e.clock,
      log: e.logger,
      options: { readsPerMinute: 60, intervalMs: 15_000 },
    });
    const watched = ids[500]!;
    const minutes = 5;
    for (let s = 0; s < minutes * 60; s++) {
      if (s === 1) poller.looked(watched);
      await poller.tick();
      e.clock.advance(1_000);
    }
    // Within the budget: 60 a minute, plus the two seconds the bucket holds, counting the
    // detail each run's first edit needs (this process had not seen the run before).
    const spent = reads.length + details.length;
    expect(spent).toBeLessThanOrEqual(60 * minutes + 2);
    expect(spent).toBeGreaterThanOrEqual(60 * (minutes - 1) - 15);
    expect(details.length).toBeGreaterThan(0);
    expect(new Set(details).size).toBe(details.length);
    // Each edit queued shows the run's steps, with the headline of its record.
    const edits = (await e.store.outboxQueue.list()).filter((i) => i.payload.kind === 'status');
    expect(edits.length).toBe(details.length);
    expect(JSON.stringify(edits[0]?.payload.message)).toContain('"kind":"steps"');
    // Never a run twice within 15 s, and none before it had run 15 s.
    const byRun = new Map<string, number[]>();
    for (const r of reads) byRun.set(r.runId, [...(byRun.get(r.runId) ?? []), r.at]);
    const start = reads.length > 0 ? Math.min(...reads.map((r) => r.at)) : 0;
    expect(start - (e.clock.now() - minutes * 60_000)).toBeGreaterThanOrEqual(15_000);
    for (const times of byRun.values()) {
      for (let i = 1; i < times.length; i++)
        expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(15_000);
    }
    // The looked-at run every interval; the others in turn, each at most once so far.
    expect(byRun.get(watched)?.length).toBeGreaterThanOrEqual(
      Math.floor((minutes * 60 - 15) / 15) - 1,
    );
    const others = [...byRun.entries()].filter(([id]) => id !== watched);
    expect(others.every(([, times]) => times.length === 1)).toBe(true);
    expect(others.length).toBeGreaterThan(100);
  }, 60_000);
});
