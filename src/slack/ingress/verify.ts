/**
 * Slack request verification on the raw body: Bolt's own v0 signature check
 * (`verifySlackRequest`) with our clock, and a replay window of 5 minutes either way.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { verifySlackRequest } from '@slack/bolt';

export const REPLAY_WINDOW_SECONDS = 5 * 60;

export type Verdict =
  { ok: true } | { ok: false; reason: 'missing_headers' | 'stale' | 'bad_signature' };

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
}

export function verifySlackSignature(
  rawBody: string,
  headers: IncomingHttpHeaders,
  signingSecret: string,
  nowMs: number,
): Verdict {
  const signature = header(headers, 'x-slack-signature');
  const timestampText = header(headers, 'x-slack-request-timestamp');
  if (signature === undefined || timestampText === undefined || !/^\d{1,15}$/.test(timestampText)) {
    return { ok: false, reason: 'missing_headers' };
  }
  const timestamp = Number(timestampText);
  if (Math.abs(Math.floor(nowMs / 1000) - timestamp) > REPLAY_WINDOW_SECONDS) {
    return { ok: false, reason: 'stale' };
  }
  try {
    verifySlackRequest({
      signingSecret,
      body: rawBody,
      headers: { 'x-slack-signature': signature, 'x-slack-request-timestamp': timestamp },
      nowMilliseconds: nowMs,
    });
    return { ok: true };
  } catch {
    return { ok: false, reason: 'bad_signature' };
  }
}
