/**
 * Which model/env/skill/factory/mode applied to a run and where each came from (docs/architecture.md:
 * "Inline beats channel/repo defaults, which beat the service default").
 */
import type { RunOptions } from '../command/command.js';
import type { AppliedSetting, OptionKey } from './message-model.js';

/** The settings a status message always reports. */
export const REPORTED_SETTINGS: readonly OptionKey[] = ['model', 'env', 'skill', 'factory', 'mode'];

export function appliedSettings(
  inline: RunOptions,
  defaults: RunOptions,
  personal: RunOptions = {},
): AppliedSetting[] {
  const reported = REPORTED_SETTINGS.map((key): AppliedSetting => {
    const own = inline[key];
    if (own !== undefined && own !== '') return { key, value: own, source: 'inline' };
    const mine = personal[key];
    if (mine !== undefined && mine !== '') return { key, value: mine, source: 'personal' };
    const fallback = defaults[key];
    if (fallback !== undefined && fallback !== '')
      return { key, value: fallback, source: 'default' };
    return { key, source: 'service' };
  });
  // A spending cap is the relay's own: shown (and kept with the run) only when one applies.
  const cap = [inline, personal, defaults].findIndex((o) => o.cap !== undefined && o.cap !== '');
  if (cap >= 0) {
    const source = (['inline', 'personal', 'default'] as const)[cap]!;
    reported.push({ key: 'cap', value: [inline, personal, defaults][cap]!.cap!, source });
  }
  return reported;
}

/** The effective options: inline values over defaults (for building the create request). */
export function effectiveOptions(inline: RunOptions, defaults: RunOptions): RunOptions {
  const out: RunOptions = { ...defaults };
  for (const [key, value] of Object.entries(inline) as [OptionKey, string | undefined][]) {
    if (value !== undefined && value !== '') out[key] = value;
  }
  return out;
}
