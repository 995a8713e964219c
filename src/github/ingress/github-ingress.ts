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
import { systemClock, type Clock, type Logger, type TriggerSink } from '../../core/ports/index.js';
import { GITHUB_BODY_LIMIT_BYTES } from '../../core/ingress/body-limit.js';
import { WEBHOOK_MEDIA_TYPES } from '../../core/ingress/media-type.js';
import { createWebhookEndpoint, headerOf, refuse } from '../../platform/webhook-endpoint.js';
import type { WebhookEndpoint } from '../../platform/webhook-endpoint.js';
import { createWebhookDispatcher } from './dispatch-webhook.js';
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
  /** Bound on the issue body / comment carried as context. Default 8,000. */
  maxBodyChars?: number;
  /** Largest request body. Default GITHUB_BODY_LIMIT_BYTES (2 MiB). */
  maxPayloadBytes?: number;
  onInstallation?: (owner: string, repo: string, installationId: number) => void;
}

export type GitHubIngress = WebhookEndpoint;

interface GitHubHeaders {
  deliveryId: string;
  event: string;
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
  const verifier = createSignatureVerifier(deps.secret, deps.previousSecret);
  const dispatch = createWebhookDispatcher({
    ...deps,
    maxBodyChars: deps.maxBodyChars ?? 8_000,
  });

  return createWebhookEndpoint<GitHubHeaders>({
    component: 'github-ingress',
    logger: deps.logger,
    sink: deps.sink,
    maxBodyBytes: deps.maxPayloadBytes ?? GITHUB_BODY_LIMIT_BYTES,
    mediaTypes: WEBHOOK_MEDIA_TYPES,
    acceptedStatus: 202,
    headers(req) {
      const event = headerOf(req, 'x-github-event');
      const deliveryId = headerOf(req, 'x-github-delivery');
      if (event === undefined || deliveryId === undefined)
        return refuse(400, 'missing_header', 'X-GitHub-Event and X-GitHub-Delivery are required');
      if (event.length > 100 || deliveryId.length > 200)
        return refuse(400, 'bad_header', 'X-GitHub-Event or X-GitHub-Delivery is too long');
      return { deliveryId, event };
    },
    async verify(raw, _headers, req, log) {
      const signature = headerOf(req, 'x-hub-signature-256');
      if (signature === undefined)
        return refuse(401, 'missing_signature', 'X-Hub-Signature-256 is required');
      const matched = await verifier.verify(raw.toString('utf8'), signature);
      if (matched === false) {
        log.warn({}, 'GitHub webhook with a bad signature rejected');
        return refuse(401, 'bad_signature', 'signature does not match');
      }
      if (matched === 'previous') log.info({}, 'webhook verified with the previous secret');
      return undefined;
    },
    parse: (raw, mediaType) => parsePayload(raw.toString('utf8'), mediaType),
    async interpret(payload, { event, deliveryId }, log, raw) {
      const receivedAt = new Date(clock.now()).toISOString();
      // The delivery id is an unsigned header: the inbox dedupes on the signed body itself.
      const payloadId = `github:sha256:${createHash('sha256').update(raw).digest('hex')}`;
      const outcome = await dispatch(event, deliveryId, payload, receivedAt, log, payloadId);
      if (outcome.result === 'trigger')
        return { kind: 'trigger', trigger: outcome.trigger, log: outcome.log };
      if (outcome.result === 'invalid') {
        log.warn({ problem: outcome.problem }, 'invalid GitHub payload');
        return {
          kind: 'answer',
          answer: refuse(400, 'invalid_payload', `unexpected ${outcome.problem}`),
        };
      }
      if (outcome.result === 'ignored')
        log.debug({ reason: outcome.reason }, 'GitHub event ignored');
      return { kind: 'answer', answer: { status: 200, body: { ok: true, ...outcome } } };
    },
  });
}
