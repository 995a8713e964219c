/**
 * The webhooks Jira sends to an OAuth 2.0 (3LO) app, registered through the REST API
 * (`/rest/api/3/webhook`), carry no `X-Hub-Signature`: Atlassian's "Webhooks" page
 * ("Webhooks authentication for OAuth 2.0 apps") says they come with `Authorization: Bearer
 * <JWT>`, the JWT signed with the app's client secret. Accepted here: a compact JWT whose
 * header names `HS256` (no other algorithm, never `none`), whose HMAC-SHA256 with the client
 * secret matches (constant time), and which, when it carries `exp`, has not expired (a minute
 * of clock skew). Atlassian does not describe the claims further, so none other is required;
 * the token is not bound to the body, which is why a redelivery is also known by what the
 * body says (to-trigger.ts).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const SKEW_SECONDS = 60;

function jsonPart(part: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return v !== null && typeof v === 'object' && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export function verifyJiraJwt(secret: string, authorization: string | undefined, now: number) {
  const token = /^Bearer\s+([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)\s*$/i.exec(
    authorization ?? '',
  )?.[1];
  if (token === undefined) return false;
  const [head, body, signature] = token.split('.') as [string, string, string];
  if (jsonPart(head)?.alg !== 'HS256') return false;
  const expected = createHmac('sha256', secret).update(`${head}.${body}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
  const claims = jsonPart(body);
  if (claims === undefined) return false;
  const exp = claims.exp;
  if (exp !== undefined && (typeof exp !== 'number' || exp + SKEW_SECONDS < now / 1000))
    return false;
  return true;
}
