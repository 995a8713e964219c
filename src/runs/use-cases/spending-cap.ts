/**
 * A run's spending cap (`cap=<USD>` inline, or the place's `config cap=`): the amount it may
 * spend before the relay stops it and asks its requester whether it may go on for another
 * cap. The record keeps the limit now (`capUsd`), one cap more for each Continue.
 */
import type { RunRecord } from '../../core/ports/index.js';

/** The run's cap step in US dollars (the applied `cap` setting), or undefined: no cap. */
export function capOf(run: Pick<RunRecord, 'applied'>): number | undefined {
  const value = run.applied.find((s) => s.key === 'cap')?.value;
  const usd = value === undefined ? NaN : Number(value);
  return Number.isFinite(usd) && usd > 0 ? usd : undefined;
}
