/**
 * Linear's OAuth endpoints: the code exchange and the refresh (`POST {origin}/oauth/token`,
 * form-encoded), the revocation of a token we will not keep (`POST {origin}/oauth/revoke`),
 * and the question of whose token it is (`viewer` and its organization).
 *
 * Linear's OAuth 2.0 documentation: an authorization-code grant answers `access_token`,
 * `token_type`, `expires_in` (seconds; 24 hours for apps created or migrated since
 * 2026-04-01), `scope` and `refresh_token`; `grant_type=refresh_token` answers a new pair, and
 * the refresh token it was given is spent (they rotate). Older apps get a long-lived access
 * token and no refresh token: both shapes are kept.
 */
import { request } from 'undici';
import { grantOfAnswer } from '../../platform/token-refresh.js';
import { createLinearGraphql } from './graphql-client.js';

/** `https://api.linear.app/graphql` -> `https://api.linear.app/oauth/token`. */
export function tokenUrlOf(apiUrl: string): string {
  return new URL('/oauth/token', apiUrl).toString();
}

/** `https://api.linear.app/graphql` -> `https://api.linear.app/oauth/revoke`. */
export function revokeUrlOf(apiUrl: string): string {
  return new URL('/oauth/revoke', apiUrl).toString();
}

/** What a token request granted: the access token, and when it expires with its refresh. */
export interface LinearGrant {
  accessToken: string;
  refreshToken?: string;
  /** Epoch ms; absent when Linear gave no `expires_in` (a long-lived token). */
  expiresAt?: number;
}

interface Client {
  apiUrl: string;
  clientId: string;
  clientSecret: string;
}

async function tokenRequest(
  client: Client,
  form: Record<string, string>,
  now: number,
): Promise<LinearGrant | { error: string }> {
  const res = await request(tokenUrlOf(client.apiUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      ...form,
      client_id: client.clientId,
      client_secret: client.clientSecret,
    }).toString(),
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  });
  const text = await res.body.text();
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object') body = parsed as Record<string, unknown>;
  } catch {
    // not JSON: reported below
  }
  return grantOfAnswer(res.statusCode === 200, res.statusCode, body, now);
}

export function exchangeCode(
  input: Client & { code: string; redirectUri: string; now: number },
): Promise<LinearGrant | { error: string }> {
  return tokenRequest(
    input,
    { grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri },
    input.now,
  );
}

/** A new pair for a refresh token (which Linear then spends). */
export function refreshGrant(
  input: Client & { refreshToken: string; now: number },
): Promise<LinearGrant | { error: string }> {
  return tokenRequest(
    input,
    { grant_type: 'refresh_token', refresh_token: input.refreshToken },
    input.now,
  );
}

/**
 * Give a token back (`POST /oauth/revoke` with the token as the bearer), so an install we
 * refuse leaves no working token behind. True when Linear said it is revoked.
 */
export async function revokeToken(apiUrl: string, token: string): Promise<boolean> {
  const res = await request(revokeUrlOf(apiUrl), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  });
  await res.body.dump();
  return res.statusCode >= 200 && res.statusCode < 300;
}

const WHO = `query Viewer { viewer { id app organization { id urlKey name } } }`;

export async function whoseToken(
  apiUrl: string,
  token: string,
): Promise<{
  appUserId: string;
  /** Whether the token acts as an app (`actor=app`), not as a person. */
  app: boolean;
  organizationId: string;
  urlKey?: string;
  name?: string;
}> {
  const data = await createLinearGraphql({ apiUrl, token })<{
    viewer?: {
      id: string;
      app?: boolean;
      organization?: { id: string; urlKey?: string; name?: string };
    };
  }>(WHO, {});
  const org = data.viewer?.organization;
  if (!data.viewer || !org) throw new Error('Linear did not say whose token this is');
  return {
    appUserId: data.viewer.id,
    app: data.viewer.app === true,
    organizationId: org.id,
    ...(org.urlKey ? { urlKey: org.urlKey } : {}),
    ...(org.name ? { name: org.name } : {}),
  };
}
