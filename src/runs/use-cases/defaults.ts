/** Channel/repo defaults (store.settings) as run options. */
import type { RunOptions } from '../../core/command/command.js';
import type { StoreTx } from '../../core/ports/index.js';

export async function loadDefaults(
  store: Pick<StoreTx, 'settings'>,
  scope: string,
): Promise<RunOptions> {
  const out: RunOptions = {};
  for (const setting of await store.settings.list(scope)) out[setting.key] = setting.value;
  return out;
}
