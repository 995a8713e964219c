/**
 * POST /linear/webhooks. Checks `Linear-Signature` on the RAW body before parsing anything,
 * then the signed body's `webhookTimestamp` (within 60 s of now, against replays), turns an
 * `AgentSessionEvent` into a neutral Trigger, hands it to the TriggerSink (the inbox), and
 * only then answers:
 *
 * - 200 accepted, a duplicate delivery (the same `Linear-Delivery` id), and events the relay
 *   does not act on;
 * - 400 missing `Linear-Delivery`, malformed JSON, an invalid payload;
 * - 401 missing or wrong signature, or a stale timestamp;
 * - 405 other methods, 413 too large, 415 not JSON, 503 when the inbox cannot take it.
 * Every answer is a short JSON object; nothing is recorded for a rejected request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  systemClock,
  type Clock,
  type Logger,
  type Metrics,
  type TriggerSink,
} from '../../core/ports/index.js';
import { mediaTypeOf } from '../../core/ingress/media-type.js';
import { createWebhookVerifier } from './verify-signature.js';
import { toTrigger } from './to-trigger.js';
import type { OrganizationGate } from './organization-gate.js';
import { AgentSessionEventSchema } from './webhook-payload.js';

/** Linear's payloads are small; a generous bound all the same. */
export const LINEAR_BODY_LIMIT_BYTES = 1024 * 1024;

export interface LinearIngressDeps {
  secret: string;
  allowedTeams: readonly string[];
  /** Whether the event's workspace is one the relay serves; asked of every event. */
  organizations: OrganizationGate;
  sink: TriggerSink;
  logger: Logger;
  clock?: Clock;
  metrics?: Metrics;
  /** Bound on the prompt context carried to a run. Default 12,000. */
  maxContextChars?: number;
  /** A session whose team may not use the relay: told so, after the answer. */
  onRefused?: (sessionId: string, organizationId: string) => void;
  /**
   * Whether a person is an admin of the Linear workspace: asked only for a `config` change
   * (the one command that needs it), so every other event is acknowledged without a lookup.
   */
  isAdmin?: (organizationId: string, userId: string) => Promise<boolean>;
}

export interface LinearIngress {
  handle(req: IncomingMessage, res: ServerResponse, rawBody?: Buffer): Promise<void>;
}

type Answer = { status: number; body: Record<string, unknown>; after?: () => void };

const fail = (status: number, error: string, message: string): Answer => ({
  status,
  body: { ok: false, error, message },
});

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  const one = Array.isArray(value) ? value[0] : value;
  return one === undefined || one.trim() === '' ? undefined : one.trim();
}

/** A `config` command that sets or unsets something (`config` alone only shows). */
const CONFIG_CHANGE = /^\s*config\b[^\n]*[=-]/i;

export function createLinearIngress(deps: LinearIngressDeps): LinearIngress {
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger.child({ component: 'linear-ingress' });
  const maxContextChars = deps.maxContextChars ?? 12_000;
  const verify = createWebhookVerifier(deps.secret);

  async function answer(req: IncomingMessage, rawBody?: Buffer): Promise<Answer> {
    if (req.method !== 'POST') return fail(405, 'method_not_allowed', 'use POST');
    if (rawBody === undefined) return fail(400, 'missing_body', 'no body');
    if (rawBody.length > LINEAR_BODY_LIMIT_BYTES)
      return fail(413, 'body_too_large', 'payload too large');
    const verdict = verify(rawBody, headerOf(req, 'linear-signature'));
    if (verdict === 'bad_signature') {
      logger.warn({}, 'Linear webhook with a missing or bad signature rejected');
      return fail(401, 'bad_signature', 'Linear-Signature does not match');
    }
    if (mediaTypeOf(req.headers['content-type']) !== 'application/json')
      return fail(415, 'unsupported_media_type', 'use application/json');
    if (verdict === 'not_json') return fail(400, 'malformed_json', 'the body is not JSON');
    if (verdict === 'stale_timestamp') {
      logger.warn({}, 'Linear webhook with a stale or missing webhookTimestamp rejected');
      return fail(401, 'stale_timestamp', 'webhookTimestamp is not within 60 s');
    }
    const payload = JSON.parse(rawBody.toString('utf8')) as unknown;
    const now = clock.now();
    const deliveryId = headerOf(req, 'linear-delivery');
    if (deliveryId === undefined || deliveryId.length > 200)
      return fail(400, 'missing_header', 'Linear-Delivery is required');
    const kind = (payload as { type?: unknown }).type;
    if (kind !== 'AgentSessionEvent') return { status: 200, body: { ok: true, result: 'ignored' } };
    const parsed = AgentSessionEventSchema.safeParse(payload);
    if (!parsed.success) {
      const problem = parsed.error.issues[0]?.path.join('.') || 'payload';
      logger.warn({ deliveryId, problem }, 'invalid Linear payload');
      return fail(400, 'invalid_payload', `unexpected ${problem}`);
    }
    const event = parsed.data;
    const log = logger.child({ deliveryId, action: event.action });
    const organization = await deps.organizations.check(event.organizationId);
    if (organization.verdict === 'unknown') {
      log.warn({ organizationId: event.organizationId }, 'could not tell whose Linear workspace');
      return fail(503, 'unavailable', 'could not check the workspace; redeliver it later');
    }
    if (organization.verdict === 'refused') {
      // Nothing is said in the session: the relay has no business writing into that workspace.
      log.warn(
        { organizationId: event.organizationId, reason: organization.reason },
        'Linear webhook from a workspace the relay does not serve, dropped',
      );
      return { status: 200, body: { ok: true, result: 'refused' } };
    }
    const interpreted = toTrigger(event, {
      deliveryId,
      receivedAt: new Date(now).toISOString(),
      allowedTeams: deps.allowedTeams,
      organization: {
        id: organization.organizationId,
        ...(organization.urlKey === undefined ? {} : { urlKey: organization.urlKey }),
      },
      maxContextChars,
    });
    if (interpreted.kind === 'ignored') {
      log.debug({ reason: interpreted.reason }, 'Linear event ignored');
      return { status: 200, body: { ok: true, result: 'ignored', reason: interpreted.reason } };
    }
    if (interpreted.kind === 'refused') {
      log.info({ reason: interpreted.reason }, 'Linear session refused');
      const sessionId = interpreted.sessionId;
      return {
        status: 200,
        body: { ok: true, result: 'refused' },
        ...(deps.onRefused
          ? { after: () => deps.onRefused?.(sessionId, event.organizationId) }
          : {}),
      };
    }
    const trigger = interpreted.trigger;
    if (deps.isAdmin && trigger.kind === 'agent_prompt' && CONFIG_CHANGE.test(trigger.text)) {
      trigger.actor.admin = await deps.isAdmin(event.organizationId, trigger.actor.id);
    }
    try {
      const result = await deps.sink.accept(trigger);
      return { status: 200, body: { ok: true, result } };
    } catch (err) {
      log.error(
        { err: err instanceof Error ? err.message : String(err) },
        'could not take the webhook',
      );
      return fail(503, 'unavailable', 'could not record the event; redeliver it later');
    }
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
        platform: 'linear',
      });
      if (!res.headersSent) {
        const payload = JSON.stringify(result.body);
        res.writeHead(result.status, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(payload),
        });
        res.end(payload);
      }
      result.after?.();
    },
  };
}
