/**
 * The role a session still has under the current settings, or undefined when its grounds are
 * gone (the person or their workspace/organization was removed from the lists): checked at
 * every request, so a change of settings takes effect at once.
 */
import type { ConsoleConfig } from '../config/load.js';
import type { ConsoleRole } from '../core/ports/index.js';
import type { Session } from './session.js';

export function standingOf(session: Session, config: ConsoleConfig): ConsoleRole | undefined {
  const colon = session.grounds.indexOf(':');
  const kind = colon === -1 ? session.grounds : session.grounds.slice(0, colon);
  const value = colon === -1 ? '' : session.grounds.slice(colon + 1);
  const lower = (xs: readonly string[] | undefined) => (xs ?? []).map((x) => x.toLowerCase());
  let role: ConsoleRole | undefined;
  if (kind === 'local') role = config.adminLink ? 'operator' : undefined;
  else if (kind === 'user' && session.operator.via === 'slack')
    role = config.slack?.users.includes(value) ? 'operator' : undefined;
  else if (kind === 'user' && session.operator.via === 'github')
    role = lower(config.github?.users).includes(value) ? 'operator' : undefined;
  else if (kind === 'team') role = config.slack?.teams.includes(value) ? 'viewer' : undefined;
  else if (kind === 'org') role = lower(config.github?.orgs).includes(value) ? 'viewer' : undefined;
  if (role === undefined) return undefined;
  return role === 'operator' ? session.role : 'viewer';
}
