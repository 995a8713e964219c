/**
 * Which Linear workspace (organization) a webhook comes from, asked on every event and not only
 * at install: an event is taken only from an organization the relay holds a token for (its
 * installation, or the configured `LINEAR_ACCESS_TOKEN` when that token is the organization's
 * own) and, when `LINEAR_ALLOWED_ORGANIZATIONS` is set, one on that list (by id, or by the URL
 * key Linear reports for the token). Whose a token is (`viewer.organization`) is asked of
 * Linear once and remembered for a while; when Linear cannot say, the event is neither taken
 * nor refused: the webhook answers 503 and Linear sends it again.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../../core/ports/index.js';
import { LinearTokenRejected } from '../api/graphql-client.js';

export type OrganizationVerdict =
  | { verdict: 'allowed'; organizationId: string; urlKey?: string }
  | { verdict: 'refused'; reason: 'not_installed' | 'not_allowed' }
  | { verdict: 'unknown' };

export interface OrganizationGate {
  check(organizationId: string): Promise<OrganizationVerdict>;
}

export interface OrganizationGateDeps {
  /** LINEAR_ALLOWED_ORGANIZATIONS: ids or URL keys; empty: the configured token's own only. */
  allowedOrganizations: readonly string[];
  /** The configured token (one-workspace mode, or the fallback with OAuth). */
  token?: string;
  /** The installation's token of an organization (OAuth install). */
  tokenFor?: (organizationId: string) => Promise<string | undefined>;
  /**
   * A new token for an installation whose token Linear refused (it expired before the relay
   * refreshed it); undefined when it cannot be renewed.
   */
  renewToken?: (organizationId: string, rejected: string) => Promise<string | undefined>;
  /** Whose token this is: its organization's id and URL key. */
  whoseToken: (token: string) => Promise<{ organizationId: string; urlKey?: string }>;
  clock: Clock;
  /** How long an answer of `whoseToken` is trusted. Default 10 minutes. */
  rememberMs?: number;
}

const MAX_REMEMBERED = 256;

export function createOrganizationGate(deps: OrganizationGateDeps): OrganizationGate {
  const rememberMs = deps.rememberMs ?? 10 * 60_000;
  const known = new Map<string, { organizationId: string; urlKey?: string; until: number }>();

  async function ownerOf(token: string) {
    const key = createHash('sha256').update(token).digest('base64url');
    const now = deps.clock.now();
    const hit = known.get(key);
    if (hit && hit.until > now) return hit;
    const who = await deps.whoseToken(token);
    if (known.size >= MAX_REMEMBERED) known.delete(known.keys().next().value as string);
    const entry = { ...who, until: now + rememberMs };
    known.set(key, entry);
    return entry;
  }

  return {
    async check(organizationId) {
      let token: string | undefined;
      let owner: { organizationId: string; urlKey?: string };
      try {
        const installed = await deps.tokenFor?.(organizationId);
        token = installed ?? deps.token;
        if (token === undefined) return { verdict: 'refused', reason: 'not_installed' };
        owner = await ownerOf(token).catch(async (err: unknown) => {
          // An installation's token that expired early is renewed, as for any other call.
          if (!(err instanceof LinearTokenRejected) || !installed || !deps.renewToken) throw err;
          const fresh = await deps.renewToken(organizationId, installed);
          if (fresh === undefined) throw err;
          return ownerOf(fresh);
        });
      } catch {
        return { verdict: 'unknown' };
      }
      // A token of another workspace cannot answer here: the event is not ours to take.
      if (owner.organizationId !== organizationId)
        return { verdict: 'refused', reason: 'not_installed' };
      const list = deps.allowedOrganizations;
      if (
        list.length > 0 &&
        !list.includes(organizationId) &&
        !(owner.urlKey !== undefined && list.includes(owner.urlKey))
      )
        return { verdict: 'refused', reason: 'not_allowed' };
      return {
        verdict: 'allowed',
        organizationId,
        ...(owner.urlKey === undefined ? {} : { urlKey: owner.urlKey }),
      };
    },
  };
}
