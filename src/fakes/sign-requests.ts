/**
 * How Slack and GitHub sign what they send, for the demo, the tests and the benchmarks to
 * sign requests to the relay: Slack's v0 HMAC-SHA256 over `v0:{timestamp}:{body}`, GitHub's
 * `X-Hub-Signature-256: sha256=<HMAC-SHA256 hex of the raw body>`. Bodies may be bytes, so a
 * body that is not valid UTF-8 is signed over exactly the bytes sent.
 */
import { createHmac } from 'node:crypto';

export interface SlackSignatureHeaders {
  'x-slack-signature': string;
  'x-slack-request-timestamp': string;
}

/** Slack's signature headers for `body` at `timestampSec` (seconds since the epoch). */
export function signSlack(
  body: string | Buffer,
  secret: string,
  timestampSec: number = Math.floor(Date.now() / 1000),
): SlackSignatureHeaders {
  const hash = createHmac('sha256', secret)
    .update(`v0:${timestampSec}:`)
    .update(body)
    .digest('hex');
  return { 'x-slack-signature': `v0=${hash}`, 'x-slack-request-timestamp': String(timestampSec) };
}

/** GitHub's `X-Hub-Signature-256` value for `body`. */
export function signGitHub(body: string | Buffer, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
