import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runUsage } from '../../src/core/run-usage.js';
import { createHarness, JSON_HEADERS, runItem, type Harness } from './client-fixtures.js';

let h: Harness;
beforeEach(() => {
  h = createHarness();
});
afterEach(async () => {
  h.agent.assertNoPendingInterceptors();
  await h.close();
});

function answerRun(usage: unknown): void {
  h.pool.intercept({ method: 'GET', path: '/api/v1/agent/runs/r1' }).reply(() => ({
    statusCode: 200,
    data: JSON.stringify(runItem({ run_id: 'r1', request_usage: usage })),
    responseOptions: { headers: JSON_HEADERS },
  }));
}

describe('agent client: request_usage', () => {
  it('reads the dollar figures and the token total', async () => {
    answerRun({
      inference_cost: 110,
      compute_cost: 11,
      platform_cost: 2,
      inference_cost_usd: 1.1,
      compute_cost_usd: 0.12,
      platform_cost_usd: 0.02,
      total_tokens: 312_000,
      usage_by_category: { primary_agent: { platform_usage_usd: 0.02 } },
    });
    const run = await h.client.getRun('r1');
    expect(runUsage(run)).toEqual({ costUsd: 1.24, tokens: 312_000 });
    // The breakdowns pass through untouched.
    expect(run.request_usage?.usage_by_category).toEqual({
      primary_agent: { platform_usage_usd: 0.02 },
    });
  });

  it('reads figures reported in cents, and never reads credits as dollars', async () => {
    answerRun({ inference_cost_cents: 98, compute_cost_cents: 26, inference_cost: 5000 });
    expect(runUsage(await h.client.getRun('r1'))).toEqual({ costUsd: 1.24 });
  });

  it('a run without usage, or with only credits, has no cost (not a cost of 0)', async () => {
    answerRun(undefined);
    expect(runUsage(await h.client.getRun('r1'))).toEqual({});
    answerRun({ inference_cost: 12, compute_cost: 3 });
    expect(runUsage(await h.client.getRun('r1'))).toEqual({});
  });

  it('a reported 0 is a cost of 0', async () => {
    answerRun({ inference_cost_usd: 0, total_tokens: 0 });
    expect(runUsage(await h.client.getRun('r1'))).toEqual({ costUsd: 0, tokens: 0 });
  });

  it('a figure in another shape is dropped, the run and the other figures kept', async () => {
    answerRun({ inference_cost_usd: 'lots', compute_cost_usd: 0.5, total_tokens: -3 });
    const run = await h.client.getRun('r1');
    expect(run.run_id).toBe('r1');
    expect(runUsage(run)).toEqual({ costUsd: 0.5 });
    answerRun('not an object');
    expect(runUsage(await h.client.getRun('r1'))).toEqual({});
  });
});
