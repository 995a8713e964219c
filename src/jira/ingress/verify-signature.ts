/**
 * Jira's admin webhooks, created with a secret, sign each delivery: `X-Hub-Signature:
 * sha256=<hex>`, the HMAC-SHA256 of the raw body with the secret (Atlassian's "Webhooks"
 * page, "Secure admin webhooks", the WebSub signature method). Compared in constant time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const SIGNATURE = /^sha256=([0-9a-fA-F]{64})$/;

export function verifyJiraSignature(secret: string, body: Buffer, header?: string): boolean {
  const given = SIGNATURE.exec(header?.trim() ?? '')?.[1];
  if (given === undefined) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(given, 'hex'));
}
