/**
 * A run's cost and tokens from the service's usage report (`request_usage`). The cost is the
 * sum of the dollar parts the service reported (inference, compute, platform), each read in
 * dollars (`*_cost_usd`) or, failing that, in cents (`*_cost_cents`); credits (`*_cost`) are
 * not money and are never read as such. A part that is missing is left out, and when no part
 * is reported there is no cost at all: an unknown cost is never a cost of 0.
 */
import type { RequestUsage, RunUsage } from './run.js';

const PARTS = ['inference', 'compute', 'platform'] as const;

function figure(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function partUsd(usage: RequestUsage, part: (typeof PARTS)[number]): number | undefined {
  const usd = figure(usage[`${part}_cost_usd`]);
  if (usd !== undefined) return usd;
  const cents = figure(usage[`${part}_cost_cents`]);
  return cents === undefined ? undefined : cents / 100;
}

/** The run's usage so far; `{}` when the service reported nothing usable. */
export function runUsage(run: { request_usage?: RequestUsage | null | undefined }): RunUsage {
  const usage = run.request_usage;
  if (usage === null || usage === undefined || typeof usage !== 'object') return {};
  const out: RunUsage = {};
  let cost: number | undefined;
  for (const part of PARTS) {
    const usd = partUsd(usage, part);
    if (usd !== undefined) cost = (cost ?? 0) + usd;
  }
  // Whole micro-dollars: the sum of a few decimal figures carries no float noise.
  if (cost !== undefined) out.costUsd = Math.round(cost * 1e6) / 1e6;
  const tokens = figure(usage.total_tokens);
  if (tokens !== undefined) out.tokens = Math.round(tokens);
  return out;
}
