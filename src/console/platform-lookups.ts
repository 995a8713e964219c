/**
 * What the console asks of the platforms that are on: who is a guest, which places are
 * public (their directory), and where GitHub issue links point (from the configuration).
 */
import type { Config } from '../config/load.js';
import type { PlaceDirectory } from '../platform/contract.js';
import type { ConsoleDeps } from './console-app.js';
import { githubWebUrlOf } from './places.js';

export function platformLookups(
  config: Pick<Config, 'console' | 'github'>,
  directory: PlaceDirectory | undefined,
): Pick<ConsoleDeps, 'githubWebUrl' | 'slackGuest' | 'placeIsPublic'> {
  const githubWebUrl = config.console?.github?.webUrl ?? githubWebUrlOf(config.github?.apiUrl);
  if (!directory) return { githubWebUrl };
  return {
    githubWebUrl,
    ...(directory.isGuest ? { slackGuest: directory.isGuest.bind(directory) } : {}),
    // A platform without a directory answers "not public": its runs stay hidden from viewers.
    ...(directory.isPublicPlace ? { placeIsPublic: directory.isPublicPlace.bind(directory) } : {}),
  };
}
