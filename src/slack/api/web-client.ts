/**
 * The Slack Web API client, configured so that failures reach the outbox at once: no hidden
 * retries, and a 429 becomes an error carrying Retry-After instead of a pause of minutes
 * inside the client (the outbox reschedules).
 */
import { webApi } from '@slack/bolt';
import { z } from 'zod';
import type { Logger } from '../../core/ports/index.js';
import { toBoltLogger } from './slack-logger.js';
import { createRequestFetch } from './request-fetch.js';

export type WebClient = InstanceType<typeof webApi.WebClient>;

export const SLACK_API_URL = 'https://slack.com/api/';

/** A message's metadata, as Slack answers it with the message (`include_all_metadata`). */
export const MessageMetadata = z.object({
  event_type: z.string(),
  event_payload: z.record(z.string(), z.unknown()).optional(),
});

export interface SlackClientOptions {
  token: string;
  /** Web API base, e.g. `https://slack.com/api/` or a local fake. */
  apiUrl?: string;
  logger: Logger;
  /** Per-request timeout; default 10 s. */
  timeoutMs?: number;
}

/** Normalise the API base: a trailing slash, and `/api/` appended to a bare origin. */
export function normaliseApiUrl(apiUrl: string | undefined): string {
  if (apiUrl === undefined || apiUrl.trim() === '') return SLACK_API_URL;
  const url = new URL(apiUrl.trim());
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/api/';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url.href;
}

export function createWebClient(options: SlackClientOptions): WebClient {
  return new webApi.WebClient(options.token, {
    slackApiUrl: normaliseApiUrl(options.apiUrl),
    logger: toBoltLogger(options.logger, 'slack-web-api'),
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: options.timeoutMs ?? 10_000,
    allowAbsoluteUrls: false,
    fetch: createRequestFetch(),
  });
}
