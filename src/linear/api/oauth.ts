/**
 * Linear's OAuth endpoints: the code exchange (`POST {origin}/oauth/token`, form-encoded) and
 * the question of whose token it is (`viewer` and its organization).
 */
import { request } from 'undici';
import { createLinearGraphql } from './graphql-client.js';

/** `https://api.linear.app/graphql` -> `https://api.linear.app/oauth/token`. */
export function tokenUrlOf(apiUrl: string): string {
  return new URL('/oauth/token', apiUrl).toString();
}

export async function exchangeCode(input: {
  apiUrl: string;
  code: string;
  redirectUri: string;
  clientId: string;
  clientSecret: string;
}): Promise<{ accessToken: string } | { error: string }> {
  const res = await request(tokenUrlOf(input.apiUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: input.code,
      redirect_uri: input.redirectUri,
      client_id: input.clientId,
      client_secret: input.clientSecret,
    }).toString(),
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  });
  const text = await res.body.text();
  let body: { access_token?: unknown; error?: unknown } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // not JSON: reported below
  }
  if (res.statusCode !== 200 || typeof body.access_token !== 'string')
    return { error: typeof body.error === 'string' ? body.error : `status ${res.statusCode}` };
  return { accessToken: body.access_token };
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
