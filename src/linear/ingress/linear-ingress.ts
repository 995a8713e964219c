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
import { systemClock, type Clock, type Logger, type TriggerSink } from '../../core/ports/index.js';
import type { RefusalSink } from '../../platform/refusals.js';
import { createWebhookEndpoint, headerOf, refuse } from '../../platform/webhook-endpoint.js';
import type {
  Interpretation,
  WebhookAnswer,
  WebhookEndpoint,
} from '../../platform/webhook-endpoint.js';
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
  /** Bound on the prompt context carried to a run. Default 12,000. */
  maxContextChars?: number;
  /** Where a session whose team may not use the relay is told so (the outbox's low lane). */
  refusals?: RefusalSink;
}

export type LinearIngress = WebhookEndpoint;

/** What a session of a team the relay does not serve is told. */
export const REFUSED_TEAM =
  "Agent runs aren't available for this team's issues here. Please ask whoever " +
  'runs agent-relay to add the team to LINEAR_ALLOWED_TEAMS.';

const JSON_ONLY: ReadonlySet<string> = new Set(['application/json']);
const IGNORED = { ok: true, result: 'ignored' };

export function createLinearIngress(deps: LinearIngressDeps): LinearIngress {
  const clock = deps.clock ?? systemClock;
  const maxContextChars = deps.maxContextChars ?? 12_000;
  const verify = createWebhookVerifier(deps.secret);

  return createWebhookEndpoint<{ deliveryId: string }>({
    component: 'linear-ingress',
    logger: deps.logger,
    sink: deps.sink,
    maxBodyBytes: LINEAR_BODY_LIMIT_BYTES,
    mediaTypes: JSON_ONLY,
    headers(req) {
      const deliveryId = headerOf(req, 'linear-delivery');
      if (deliveryId === undefined || deliveryId.length > 200)
        return refuse(400, 'missing_header', 'Linear-Delivery is required');
      return { deliveryId };
    },
    async verify(raw, _headers, req, log) {
      const verdict = verify(raw, headerOf(req, 'linear-signature'));
      if (verdict === 'bad_signature') {
        log.warn({}, 'Linear webhook with a missing or bad signature rejected');
        return refuse(401, 'bad_signature', 'Linear-Signature does not match');
      }
      if (verdict === 'not_json') return refuse(400, 'malformed_json', 'the body is not JSON');
      if (verdict === 'stale_timestamp') {
        log.warn({}, 'Linear webhook with a stale or missing webhookTimestamp rejected');
        return refuse(401, 'stale_timestamp', 'webhookTimestamp is not within 60 s');
      }
      return undefined;
    },
    parse: (raw) => JSON.parse(raw.toString('utf8')) as unknown,
    async interpret(payload, { deliveryId }, log) {
      const answer = (a: WebhookAnswer): Interpretation => ({ kind: 'answer', answer: a });
      const kind = (payload as { type?: unknown }).type;
      if (kind !== 'AgentSessionEvent') return answer({ status: 200, body: IGNORED });
      const parsed = AgentSessionEventSchema.safeParse(payload);
      if (!parsed.success) {
        const problem = parsed.error.issues[0]?.path.join('.') || 'payload';
        log.warn({ problem }, 'invalid Linear payload');
        return answer(refuse(400, 'invalid_payload', `unexpected ${problem}`));
      }
      const event = parsed.data;
      const elog = log.child({ action: event.action });
      const organization = await deps.organizations.check(event.organizationId);
      if (organization.verdict === 'unknown') {
        elog.warn(
          { organizationId: event.organizationId },
          'could not tell whose Linear workspace',
        );
        return answer(
          refuse(503, 'unavailable', 'could not check the workspace; redeliver it later'),
        );
      }
      if (organization.verdict === 'refused') {
        // Nothing is said in the session: the relay has no business writing into that workspace.
        elog.warn(
          { organizationId: event.organizationId, reason: organization.reason },
          'Linear webhook from a workspace the relay does not serve, dropped',
        );
        return answer({ status: 200, body: { ok: true, result: 'refused' } });
      }
      const interpreted = toTrigger(event, {
        deliveryId,
        receivedAt: new Date(clock.now()).toISOString(),
        allowedTeams: deps.allowedTeams,
        organization: {
          id: organization.organizationId,
          ...(organization.urlKey === undefined ? {} : { urlKey: organization.urlKey }),
        },
        maxContextChars,
      });
      if (interpreted.kind === 'ignored') {
        elog.debug({ reason: interpreted.reason }, 'Linear event ignored');
        return answer({ status: 200, body: { ...IGNORED, reason: interpreted.reason } });
      }
      if (interpreted.kind === 'refused') {
        elog.info({ reason: interpreted.reason }, 'Linear session refused');
        const detail = await deps.refusals?.refuse({
          deliveryId,
          threadKey: interpreted.threadKey,
          actor: interpreted.actor,
          message: { type: 'notice', tone: 'error', text: REFUSED_TEAM },
        });
        return answer({ status: 200, body: { ok: true, result: 'refused', detail } });
      }
      return { kind: 'trigger', trigger: interpreted.trigger, log: elog };
    },
  });
}
