/**
 * What a console viewer may see: runs and places of their own tenant only, the one their
 * session's grounds name (`team:T…`: that Slack workspace; `org:acme`: that GitHub
 * organisation's repositories), and within it public places only. Operators see every tenant.
 */
import { tenantOf } from '../core/thread-key.js';
import type { PageContext } from './pages/layout.js';

/** The tenant a viewer's grounds name; undefined for any other grounds (they see nothing). */
export function viewerTenant(grounds: string): string | undefined {
  if (grounds.startsWith('team:')) return `slack:${grounds.slice('team:'.length)}`;
  if (grounds.startsWith('org:')) return `github:${grounds.slice('org:'.length).toLowerCase()}`;
  return undefined;
}

/** Whether whoever reads the page may see the run or place of `threadKey`. */
export async function maySee(
  ctx: Pick<PageContext, 'role' | 'tenant'>,
  threadKey: string,
  isPublic: (threadKey: string) => Promise<boolean>,
): Promise<boolean> {
  if (ctx.role === 'operator') return true;
  const tenant = tenantOf(threadKey);
  // GitHub owners are case-insensitive; Slack ids are upper case either way.
  if (tenant === undefined || ctx.tenant === undefined) return false;
  if (tenant.toLowerCase() !== ctx.tenant.toLowerCase()) return false;
  return isPublic(threadKey);
}
