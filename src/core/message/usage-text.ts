/**
 * A run's usage in a few words: "about $1.24 · 312k tokens". The cost is the service's
 * approximate figure (hence "about", said once), never a bill; a figure the service did not
 * report is left out, never shown as 0, and without a cost or tokens there is no usage line.
 * Lists and tables, where a column says what it is, use the shorter "≈ $1.24".
 */
import type { RunView } from './message-model.js';

// Each status message formats its cost; `toLocaleString` with options builds a new formatter
// per call, so the two shapes used here are built once.
const cents = new Intl.NumberFormat('en-US', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const upToCents = new Intl.NumberFormat('en-US', {
  minimumFractionDigits: 0,
  maximumFractionDigits: 2,
});

/** "≈ $1.24"; below a cent "≈ < $0.01". */
export function formatCost(usd: number): string {
  if (usd > 0 && usd < 0.005) return '≈ < $0.01';
  return `≈ $${cents.format(usd)}`;
}

/** A plain dollar amount for budgets and totals: "$20", "$12.50". */
export function formatUsd(usd: number): string {
  const whole = Math.round(usd * 100) % 100 === 0;
  return `$${(whole ? upToCents : cents).format(usd)}`;
}

/** "812 tokens", "312k tokens", "1.2M tokens". */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return `${tokens} ${tokens === 1 ? 'token' : 'tokens'}`;
  if (tokens < 999_500) return `${Math.round(tokens / 1000)}k tokens`;
  const millions = (tokens / 1_000_000).toFixed(1).replace(/\.0$/, '');
  return `${millions}M tokens`;
}

/** "about $1.24"; below a cent "less than $0.01": the service's estimate, in words. */
export function costInWords(usd: number): string {
  if (usd > 0 && usd < 0.005) return 'less than $0.01';
  return `about ${formatCost(usd).replace(/^≈ /, '')}`;
}

/**
 * The usage line of a run, or undefined when the service reported neither cost nor tokens.
 * The run time is not repeated here: every message that carries this line already says it.
 */
export function usageLine(run: Pick<RunView, 'usage'>): string | undefined {
  const { usage } = run;
  if (usage === undefined || (usage.costUsd === undefined && usage.tokens === undefined))
    return undefined;
  const parts: string[] = [];
  if (usage.costUsd !== undefined) parts.push(costInWords(usage.costUsd));
  if (usage.tokens !== undefined) parts.push(formatTokens(usage.tokens));
  return parts.join(' · ');
}

/**
 * The usage line as a message says it: "Used about $1.24 · 312k tokens", or for a live run
 * "Used about $0.08 · 9k tokens so far".
 */
export function labelledUsage(run: Pick<RunView, 'usage'>, soFar = false): string | undefined {
  const line = usageLine(run);
  if (line === undefined) return undefined;
  return soFar ? `Used ${line} so far` : `Used ${line}`;
}

/**
 * The last line of a place's list: "This channel has spent about $12.40 in November 2026 (UTC)
 * of its $20 budget"; undefined when the list is not a place's.
 */
export function monthLine(
  month: { name: string; spentUsd: number; budgetUsd?: number } | undefined,
  place: 'channel' | 'repository',
): string | undefined {
  if (month === undefined) return undefined;
  const budget =
    month.budgetUsd === undefined ? '' : ` of its ${formatUsd(month.budgetUsd)} budget`;
  return `This ${place} has spent ${costInWords(month.spentUsd)} in ${month.name} (UTC)${budget}`;
}
