/**
 * POST /github/webhooks. Verifies `X-Hub-Signature-256` on the RAW body (current secret, then
 * the previous one during a rotation) before parsing anything, turns the event into a neutral
 * Trigger, hands it to the TriggerSink (the inbox), and only then answers:
 *
 * - 202 accepted; 200 for a duplicate delivery, ping, and ignored events/actions;
 * - 400 missing `X-GitHub-Event`/`X-GitHub-Delivery`, malformed JSON, invalid payload;
 * - 401 missing or wrong signature (`createNodeMiddleware` would say 400; a bad signature is
 *   an authentication failure, and 401 tells an operator to look at the secret);
 * - 405 other methods, 413 bodies over 2 MiB (GITHUB_BODY_LIMIT_BYTES), 415 a content type other
 *   than JSON or form, 503 when the inbox cannot take the trigger.
 * Every answer is a short JSON object; nothing is recorded for a rejected request.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  systemClock,
  type Clock,
  type Logger,
  type Metrics,
  type TriggerSink,
} from '../../core/ports/index.js';
import { GITHUB_BODY_LIMIT_BYTES } from '../../core/ingress/body-limit.js';
import { mediaTypeOf, WEBHOOK_MEDIA_TYPES } from '../../core/ingress/media-type.js';
import { createWebhookDispatcher } from './dispatch-webhook.js';
import { BodyTooLargeError, readBody } from './read-body.js';
import type { RefusalSink } from './refusal.js';
import { createSignatureVerifier } from './verify-signature.js';

export interface GitHubIngressDeps {
  secret: string;
  /** Also accepted during a secret rotation (GITHUB_WEBHOOK_SECRET_PREVIOUS). */
  previousSecret?: string;
  /** The @-handle that addresses the bot, without @ (GITHUB_BOT_HANDLE). */
  botHandle: string;
  /** The app's own login, e.g. `agent-relay[bot]`, or the token user's login. */
  botLogin?: string;
  /** GITHUB_TRIGGER_LABEL. */
  triggerLabel: string;
  /** GITHUB_ALLOWED_ASSOCIATIONS. */
  allowedAssociations: string[];
  /** The line command, e.g. `/agent`. */
  commandWord: string;
  sink: TriggerSink;
  /** Where the one polite refusal goes (wire `createOutboxRefusalSink`). */
  refusals?: RefusalSink;
  logger: Logger;
  clock?: Clock;
  metrics?: Metrics;
  /** Bound on the issue body / comment carried as context. Default 8,000. */
  maxBodyChars?: number;
  /** Largest request body. Default GITHUB_BODY_LIMIT_BYTES (2 MiB). */
  maxPayloadBytes?: number;
  onInstallation?: (owner: string, repo: string, installationId: number) => void;
}

export interface GitHubIngress {
  handle(req: IncomingMessage, res: ServerResponse, rawBody?: Buffer): Promise<void>;
}

type Answer = { status: number; body: Record<string, unknown> };

const fail = (status: number, error: string, message: string): Answer => ({
  status,
  body: { ok: false, error, message },
});

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  const one = Array.isArray(value) ? value[0] : value;
  return one === undefined || one.trim() === '' ? undefined : one.trim();
}

/** JSON, or GitHub's form encoding (`payload=<json>`) when the hook was set up that way. */
function parsePayload(raw: string, mediaType: string): unknown {
  if (mediaType === 'application/x-www-form-urlencoded') {
    const payload = new URLSearchParams(raw).get('payload');
    if (payload === null) throw new SyntaxError('form body without payload');
    return JSON.parse(payload) as unknown;
  }
  return JSON.parse(raw) as unknown;
}

export function createGitHubIngress(deps: GitHubIngressDeps): GitHubIngress {
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger.child({ component: 'github-ingress' });
  const verifier = createSignatureVerifier(deps.secret, deps.previousSecret);
  const maxPayloadBytes = deps.maxPayloadBytes ?? GITHUB_BODY_LIMIT_BYTES;
  const dispatch = createWebhookDispatcher({
    ...deps,
    maxBodyChars: deps.maxBodyChars ?? 8_000,
  });

  async function answer(req: IncomingMessage, rawBody?: Buffer): Promise<Answer> {
    if (req.method !== 'POST') return fail(405, 'method_not_allowed', 'use POST');
    let body: Buffer;
    try {
      body = rawBody ?? (await readBody(req, maxPayloadBytes));
    } catch (err) {
      if (err instanceof BodyTooLargeError) return fail(413, err.code, 'payload too large');
      throw err;
    }
    if (body.length > maxPayloadBytes) return fail(413, 'body_too_large', 'payload too large');
    const event = headerOf(req, 'x-github-event');
    const deliveryId = headerOf(req, 'x-github-delivery');
    if (event === undefined || deliveryId === undefined) {
      return fail(400, 'missing_header', 'X-GitHub-Event and X-GitHub-Delivery are required');
    }
    if (event.length > 100 || deliveryId.length > 200) {
      return fail(400, 'bad_header', 'X-GitHub-Event or X-GitHub-Delivery is too long');
    }
    const mediaType = mediaTypeOf(req.headers['content-type']);
    if (!WEBHOOK_MEDIA_TYPES.has(mediaType)) {
      return fail(415, 'unsupported_media_type', 'use application/json (or form-encoded)');
    }
    const log = logger.child({ deliveryId, event });
    const signature = headerOf(req, 'x-hub-signature-256');
    if (signature === undefined)
      return fail(401, 'missing_signature', 'X-Hub-Signature-256 is required');
    const raw = body.toString('utf8');
    const matched = await verifier.verify(raw, signature);
    if (matched === false) {
      log.warn({}, 'GitHub webhook with a bad signature rejected');
      return fail(401, 'bad_signature', 'signature does not match');
    }
    if (matched === 'previous') log.info({}, 'webhook verified with the previous secret');
    let payload: unknown;
    try {
      payload = parsePayload(raw, mediaType);
    } catch {
      return fail(400, 'malformed_json', 'the body is not JSON');
    }
    const receivedAt = new Date(clock.now()).toISOString();
    let outcome;
    try {
      // The delivery id is an unsigned header: the inbox dedupes on the signed body itself.
      const payloadId = `github:sha256:${createHash('sha256').update(body).digest('hex')}`;
      outcome = await dispatch(event, deliveryId, payload, receivedAt, log, payloadId);
    } catch (err) {
      log.error(
        { err: err instanceof Error ? err.message : String(err) },
        'could not take the webhook',
      );
      return fail(503, 'unavailable', 'could not record the event; redeliver it later');
    }
    if (outcome.result === 'invalid') {
      log.warn({ problem: outcome.problem }, 'invalid GitHub payload');
      return fail(400, 'invalid_payload', `unexpected ${outcome.problem}`);
    }
    if (outcome.result === 'ignored') log.debug({ reason: outcome.reason }, 'GitHub event ignored');
    return { status: outcome.result === 'accepted' ? 202 : 200, body: { ok: true, ...outcome } };
  }

  return {
    async handle(req, res, rawBody) {
      const started = performance.now();
      let result: Answer;
      try {
        result = await answer(req, rawBody);
      } catch (err) {
        logger.error(
          { err: err instanceof Error ? err.message : String(err) },
          'webhook handling failed',
        );
        result = fail(500, 'internal', 'internal error');
      }
      deps.metrics?.observe('trigger_to_ack_seconds', (performance.now() - started) / 1000, {
        platform: 'github',
      });
      if (res.headersSent) return;
      const payload = JSON.stringify(result.body);
      const headers: Record<string, string | number> = {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(payload),
      };
      if (result.status === 413) headers.connection = 'close';
      res.writeHead(result.status, headers);
      res.end(payload);
    },
  };
}
