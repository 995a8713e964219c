/** Channel/repo defaults (store.settings) as run options. */
import type { RunOptions } from '../../core/command/command.js';
import type { RunsDeps } from '../runs-deps.js';
import { settingsOf, type TriggerJob } from './trigger-job.js';

/** The scope's settings as run options, read once per trigger (trigger-job.ts). */
export async function loadDefaults(
  deps: Pick<RunsDeps, 'store'>,
  job: Pick<TriggerJob, 'settingsRead'>,
  scope: string,
): Promise<RunOptions> {
  const out: RunOptions = {};
  for (const setting of await settingsOf(deps, job, scope)) out[setting.key] = setting.value;
  return out;
}
