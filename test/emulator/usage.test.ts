import { describe, expect, it } from 'vitest';
import { runUsage } from '../../src/core/run-usage.js';
import { PublishedRequestUsageSchema } from '../contract/published-schemas/usage.js';
import { createRun, emulatorPerTest } from './helpers.js';

const t = emulatorPerTest();

async function usageOf(id: string): Promise<unknown> {
  const detail = (await t.api('GET', `/agent/runs/${id}`)).body;
  const listed = (await t.api('GET', '/agent/runs?limit=50')).body.runs.find(
    (r: { run_id: string }) => r.run_id === id,
  );
  // The list and the detail report the same usage.
  expect(listed.request_usage).toEqual(detail.request_usage);
  return detail.request_usage;
}

describe('request_usage', () => {
  it('is absent before the run works, then grows while it runs, in the published shape', async () => {
    const id = await createRun(t.api, { prompt: 'Tidy the changelog' });
    expect(await usageOf(id)).toBeUndefined();
    t.clock.advance(300); // INPROGRESS
    const working = PublishedRequestUsageSchema.parse(await usageOf(id));
    t.clock.advance(1000); // SUCCEEDED
    const ended = PublishedRequestUsageSchema.parse(await usageOf(id));
    expect(runUsage({ request_usage: working })).toEqual({ costUsd: 0.08, tokens: 12_000 });
    expect(runUsage({ request_usage: ended }).tokens).toBe(312_000);
    expect(runUsage({ request_usage: ended }).costUsd).toBeCloseTo(1.24, 10);
    // Credits are reported beside the dollars, as the published shape has them.
    expect(ended.inference_cost).toBeGreaterThan(0);
  });

  it('keeps growing across a follow-up (a new execution)', async () => {
    const id = await createRun(t.api, { prompt: 'Tidy the changelog' });
    t.clock.advance(1300);
    const first = runUsage({ request_usage: PublishedRequestUsageSchema.parse(await usageOf(id)) });
    await t.api('POST', `/agent/runs/${id}/followups`, { message: 'and the readme' });
    t.clock.advance(1300);
    const second = runUsage({
      request_usage: PublishedRequestUsageSchema.parse(await usageOf(id)),
    });
    expect(second.tokens).toBe(2 * (first.tokens ?? 0));
    expect(second.costUsd).toBeCloseTo(2 * (first.costUsd ?? 0), 10);
  });

  it('a run cancelled soon after it started working costs its share, not a whole run', async () => {
    const id = await createRun(t.api, { prompt: 'Tidy the changelog' });
    t.clock.advance(300); // INPROGRESS
    t.clock.advance(100); // a tenth of its scripted time worked
    expect((await t.api('POST', `/agent/runs/${id}/cancel`)).status).toBe(200);
    const cancelled = runUsage({
      request_usage: PublishedRequestUsageSchema.parse(await usageOf(id)),
    });
    expect(cancelled.tokens).toBeGreaterThan(12_000);
    expect(cancelled.tokens).toBeLessThan(312_000 / 2);
    expect(cancelled.costUsd).toBeGreaterThan(0.08);
    expect(cancelled.costUsd).toBeLessThan(1.24 / 2);
  });

  it('reports nothing for a run cancelled before it worked', async () => {
    const id = await createRun(t.api, { prompt: 'Tidy the changelog' });
    expect((await t.api('POST', `/agent/runs/${id}/cancel`)).status).toBe(200);
    expect(await usageOf(id)).toBeUndefined();
  });
});
