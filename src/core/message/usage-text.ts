/**
 * A run's usage in a few words: "≈ $1.24 · 312k tokens". The cost is the
 * service's approximate figure (hence "≈"), never a bill; a figure the service did not report
 * is left out, never shown as 0, and without a cost or tokens there is no usage line at all.
 */
import type { RunView } from './message-model.js';

/** "≈ $1.24"; below a cent "≈ < $0.01". */
export function formatCost(usd: number): string {
  if (usd > 0 && usd < 0.005) return '≈ < $0.01';
  const amount = usd.toLocaleString('en-US', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  return `≈ $${amount}`;
}

/** A plain dollar amount for budgets and totals: "$20", "$12.50". */
export function formatUsd(usd: number): string {
  const whole = Math.round(usd * 100) % 100 === 0;
  return `$${usd.toLocaleString('en-US', {
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: 2,
  })}`;
}

/** "812 tokens", "312k tokens", "1.2M tokens". */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return `${tokens} ${tokens === 1 ? 'token' : 'tokens'}`;
  if (tokens < 999_500) return `${Math.round(tokens / 1000)}k tokens`;
  const millions = (tokens / 1_000_000).toFixed(1).replace(/\.0$/, '');
  return `${millions}M tokens`;
}

/** The label every usage line carries: these are the service's estimates, not a bill. */
export const APPROXIMATE = '(approximate)';

/**
 * The usage line of a run, or undefined when the service reported neither cost nor tokens.
 * The run time is not repeated here: every message that carries this line already says it.
 */
export function usageLine(run: Pick<RunView, 'usage'>): string | undefined {
  const { usage } = run;
  if (usage === undefined || (usage.costUsd === undefined && usage.tokens === undefined))
    return undefined;
  const parts: string[] = [];
  if (usage.costUsd !== undefined) parts.push(formatCost(usage.costUsd));
  if (usage.tokens !== undefined) parts.push(formatTokens(usage.tokens));
  return parts.join(' · ');
}

/**
 * The usage line with its label: "≈ $1.24 · 312k tokens (approximate)", or for a live run
 * "≈ $0.08 so far (approximate)".
 */
export function labelledUsage(run: Pick<RunView, 'usage'>, soFar = false): string | undefined {
  const line = usageLine(run);
  if (line === undefined) return undefined;
  return soFar ? `${line} so far ${APPROXIMATE}` : `${line} ${APPROXIMATE}`;
}

/**
 * The last line of a place's list: "This channel has spent ≈ $12.40 in November 2026 (UTC) of
 * its $20 budget (approximate)"; undefined when the list is not a place's.
 */
export function monthLine(
  month: { name: string; spentUsd: number; budgetUsd?: number } | undefined,
  place: 'channel' | 'repository',
): string | undefined {
  if (month === undefined) return undefined;
  const budget =
    month.budgetUsd === undefined ? '' : ` of its ${formatUsd(month.budgetUsd)} budget`;
  return `This ${place} has spent ${formatCost(month.spentUsd)} in ${month.name} (UTC)${budget} ${APPROXIMATE}`;
}
