/**
 * Whether a run's place (channel, repository) is public, as far as can be told, remembered for
 * a few minutes each: viewers see runs in public places only. Unknown counts as private.
 */
import type { Logger } from '../core/ports/index.js';

const PUBLIC_TTL_MS = 5 * 60_000;

export function createPublicPlaces(deps: {
  placeIsPublic: ((threadKey: string) => Promise<boolean>) | undefined;
  now: () => number;
  log: Logger;
}): (threadKey: string) => Promise<boolean> {
  const { now, log } = deps;
  const publicCache = new Map<string, { at: number; open: boolean }>();
  return async function isPublic(threadKey: string): Promise<boolean> {
    if (!deps.placeIsPublic) return false;
    const hit = publicCache.get(threadKey);
    if (hit && now() - hit.at < PUBLIC_TTL_MS) return hit.open;
    let open = false;
    try {
      open = await deps.placeIsPublic(threadKey);
    } catch (err) {
      log.debug({ err }, 'console: could not tell whether a place is public; taken as private');
    }
    if (publicCache.size > 10_000) publicCache.clear();
    publicCache.set(threadKey, { at: now(), open });
    return open;
  };
}
