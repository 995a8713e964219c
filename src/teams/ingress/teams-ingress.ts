/**
 * POST /teams/messages (the bot's messaging endpoint), through the shared webhook endpoint.
 * Checks the Bot Connector's token (verify-token.ts: signature, issuer, audience, lifetime,
 * `serviceurl`) and the activity's tenant before anything else is read, turns a message, a
 * card press or the message extension's action into a neutral Trigger, hands it to the inbox,
 * and only then answers:
 *
 * - 200 accepted, a duplicate (the same activity again), and what the relay does not act on
 *   (other activities, people or places not allowed: nothing stored); a card press is
 *   answered with an invoke response that only the presser sees;
 * - 400 malformed JSON or activity;
 * - 401 a missing, unsigned, expired, foreign or mismatched token, or a tenant not allowed;
 * - 405 other methods, 413 too large, 415 not JSON, 503 when the inbox cannot take it.
 * The Bot Connector is not called before the answer.
 */
import type { IncomingMessage } from 'node:http';
import type { RunRecord } from '../../core/ports/index.js';
import { systemClock, type Clock, type Logger, type TriggerSink } from '../../core/ports/index.js';
import { createWebhookEndpoint, headerOf, refuse } from '../../platform/webhook-endpoint.js';
import type { Interpretation, WebhookEndpoint } from '../../platform/webhook-endpoint.js';
import { Activity, tenantOfActivity } from '../api/activity.js';
import { fromCardAction, privateAnswer, type RefreshCard } from './card-action.js';
import {
  fromExtensionAction,
  fromMessage,
  type Interpreted,
  type TeamsPeopleRules,
} from './to-trigger.js';
import type { TokenCheck } from './verify-token.js';

/** An activity is small; Teams caps a message at about 28 KB. */
export const TEAMS_BODY_LIMIT_BYTES = 256 * 1024;

export interface TeamsIngressDeps extends TeamsPeopleRules {
  tokens: TokenCheck;
  allowedTenants: readonly string[];
  sink: TriggerSink;
  runs: { get(runId: string): Promise<RunRecord | undefined> };
  /** The status card a refresh is answered with, from the run's record (Stop and Cancel when `live`). */
  refreshCard?: RefreshCard;
  /** Told each conversation's serviceUrl, once its token held (replies go there). */
  heard(conversationId: string, serviceUrl: string): void;
  logger: Logger;
  clock?: Clock;
  /** Bound on the words carried to a run. Default 12,000. */
  maxContextChars?: number;
}

const JSON_ONLY: ReadonlySet<string> = new Set(['application/json']);

/** The `serviceUrl` a body names, read only to compare with the token's claim. */
function serviceUrlOf(raw: Buffer): string | undefined {
  try {
    const value = (JSON.parse(raw.toString('utf8')) as { serviceUrl?: unknown } | null)?.serviceUrl;
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

const ignoredAnswer = (reason: string): Interpretation => ({
  kind: 'answer',
  answer: { status: 200, body: { ok: true, result: 'ignored', reason } },
});

export function createTeamsIngress(deps: TeamsIngressDeps): WebhookEndpoint {
  const clock = deps.clock ?? systemClock;
  const options = () => ({
    appId: deps.appId,
    allowedUsers: deps.allowedUsers,
    allowedChannels: deps.allowedChannels,
    adminUsers: deps.adminUsers,
    allowGuests: deps.allowGuests,
    receivedAt: new Date(clock.now()).toISOString(),
    maxContextChars: deps.maxContextChars ?? 12_000,
  });

  return createWebhookEndpoint<{ authorization?: string }>({
    component: 'teams-ingress',
    logger: deps.logger,
    sink: deps.sink,
    maxBodyBytes: TEAMS_BODY_LIMIT_BYTES,
    mediaTypes: JSON_ONLY,
    headers(req: IncomingMessage) {
      const authorization = headerOf(req, 'authorization');
      return authorization === undefined ? {} : { authorization };
    },
    async verify(raw, headers, _req, log) {
      const verdict = await deps.tokens.check(headers.authorization, serviceUrlOf(raw));
      if (!verdict.ok) {
        log.warn({ reason: verdict.reason }, 'Teams activity with a bad token rejected');
        return refuse(401, verdict.reason, 'the Bot Connector token does not hold');
      }
      return undefined;
    },
    parse: (raw) => JSON.parse(raw.toString('utf8')) as unknown,
    async interpret(payload, _headers, log): Promise<Interpretation> {
      const parsed = Activity.safeParse(payload);
      if (!parsed.success) {
        const problem = parsed.error.issues[0]?.path.map(String).join('.') || 'activity';
        log.warn({ problem }, 'invalid Teams activity');
        return { kind: 'answer', answer: refuse(400, 'invalid_activity', `unexpected ${problem}`) };
      }
      const activity = parsed.data;
      const tenant = tenantOfActivity(activity);
      if (tenant === undefined || !deps.allowedTenants.includes(tenant)) {
        log.warn({ tenant }, 'Teams activity from a tenant not allowed rejected');
        return {
          kind: 'answer',
          answer: refuse(401, 'tenant_not_allowed', 'this tenant may not use the bot'),
        };
      }
      deps.heard(activity.conversation.id, activity.serviceUrl);
      let interpreted: Interpreted;
      if (activity.type === 'message') {
        interpreted = fromMessage(activity, options());
      } else if (activity.type === 'invoke' && activity.name === 'adaptiveCard/action') {
        const press = await fromCardAction(
          activity,
          deps,
          deps.runs,
          options().receivedAt,
          deps.refreshCard,
        );
        if (press.kind === 'answer') return press;
        interpreted = press;
      } else if (activity.type === 'invoke' && activity.name === 'composeExtension/submitAction') {
        interpreted = fromExtensionAction(activity, options());
        if (interpreted.kind === 'ignored') {
          log.debug({ reason: interpreted.reason }, 'Teams action ignored');
          return { kind: 'answer', answer: { status: 200, body: {} } };
        }
      } else {
        interpreted = { kind: 'ignored', reason: 'other_activity' };
      }
      if (interpreted.kind === 'ignored') {
        log.debug({ type: activity.type, reason: interpreted.reason }, 'Teams activity ignored');
        return ignoredAnswer(interpreted.reason);
      }
      const { trigger } = interpreted;
      return {
        kind: 'trigger',
        trigger,
        log: log.child({ threadKey: trigger.threadKey, deliveryId: trigger.deliveryId }),
      };
    },
    acceptedAnswer(trigger, result) {
      if (trigger.kind === 'stop_button') return privateAnswer('Stopping what the agent is doing…');
      if (trigger.kind === 'cancel_button') return privateAnswer('Cancelling the run…');
      // The message extension's dialog closes on an empty answer.
      if (trigger.kind === 'message_action') return { status: 200, body: {} };
      return { status: 200, body: { ok: true, result } };
    },
  });
}
