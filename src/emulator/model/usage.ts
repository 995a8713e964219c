/**
 * The usage the emulator reports (`request_usage`): it grows while a run runs, a step when an
 * execution starts working and a larger one when it stops, so a run that is followed up costs
 * more each time. One execution comes to $1.24 and 312,000 tokens, the figures the docs show;
 * one stopped early (cancelled, say) adds only its share of the larger step.
 * Nothing is reported before the first execution starts working (the field is then absent).
 */
import type { RequestUsage } from '../../agent/schemas.js';
import type { EmuRun } from './types.js';

export interface EmuUsage {
  inferenceUsd: number;
  computeUsd: number;
  platformUsd: number;
  tokens: number;
}

/** The usage added when an execution starts working, and when it stops. */
export const USAGE_STEPS: Record<'start' | 'stop', EmuUsage> = {
  start: { inferenceUsd: 0.06, computeUsd: 0.01, platformUsd: 0.01, tokens: 12_000 },
  stop: { inferenceUsd: 1.05, computeUsd: 0.1, platformUsd: 0.01, tokens: 300_000 },
};

/** What a credit costs in the emulator: its credits are its dollars times this. */
const CREDITS_PER_USD = 100;

const cents = (usd: number): number => Math.round(usd * 100) / 100;

/** Add a step's usage; `share` (0..1) of it for an execution that stopped early. */
export function growUsage(run: EmuRun, step: keyof typeof USAGE_STEPS, share = 1): void {
  const whole = USAGE_STEPS[step];
  const part = Math.min(1, Math.max(0, share));
  const add = {
    inferenceUsd: whole.inferenceUsd * part,
    computeUsd: whole.computeUsd * part,
    platformUsd: whole.platformUsd * part,
    tokens: Math.round(whole.tokens * part),
  };
  const now = run.usage ?? { inferenceUsd: 0, computeUsd: 0, platformUsd: 0, tokens: 0 };
  run.usage = {
    inferenceUsd: cents(now.inferenceUsd + add.inferenceUsd),
    computeUsd: cents(now.computeUsd + add.computeUsd),
    platformUsd: cents(now.platformUsd + add.platformUsd),
    tokens: now.tokens + add.tokens,
  };
}

/** The published shape: credits, their dollar conversion and the token total. */
export function requestUsage(usage: EmuUsage): RequestUsage {
  return {
    inference_cost: Math.round(usage.inferenceUsd * CREDITS_PER_USD),
    compute_cost: Math.round(usage.computeUsd * CREDITS_PER_USD),
    platform_cost: Math.round(usage.platformUsd * CREDITS_PER_USD),
    inference_cost_usd: usage.inferenceUsd,
    compute_cost_usd: usage.computeUsd,
    platform_cost_usd: usage.platformUsd,
    total_tokens: usage.tokens,
  };
}

/**
 * The agent spends `usd` more now (a test's control, like the faults): the usage report grows
 * by that much inference and the run's `updated_at` moves, as a service's does when it
 * reports more usage of a working run.
 */
export function spend(run: EmuRun, usd: number, at: number): void {
  if (!Number.isFinite(usd) || usd <= 0) throw new RangeError(`spend must be > 0, got ${usd}`);
  const now = run.usage ?? { inferenceUsd: 0, computeUsd: 0, platformUsd: 0, tokens: 0 };
  run.usage = { ...now, inferenceUsd: cents(now.inferenceUsd + usd) };
  run.updatedAt = Math.max(run.updatedAt + 1, at);
}
