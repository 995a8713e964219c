/**
 * POST /jira/webhooks, through the shared webhook endpoint. Checks the delivery's signature
 * before parsing anything (`X-Hub-Signature` on the RAW body for an admin webhook; the
 * `Authorization` JWT for the webhooks of an OAuth app), requires the delivery's identifier
 * (`X-Atlassian-Webhook-Identifier`, kept in the logs), turns an issue change or a new comment
 * into a neutral Trigger (to-trigger.ts), hands it to the inbox, and only then answers:
 *
 * - 200 accepted, a duplicate (the same signed change or comment), and everything the relay
 *   does not act on (other events, sites it does not serve, projects not allowed: nothing
 *   stored);
 * - 400 missing identifier, malformed JSON, a payload without its issue;
 * - 401 missing or wrong signature;
 * - 405 other methods, 413 too large, 415 not JSON, 503 when the inbox cannot take it.
 * Jira is not called before the answer.
 */
import { DEFAULT_COMMAND_WORD } from '../../core/command/parse-command.js';
import { systemClock, type Clock, type Logger, type TriggerSink } from '../../core/ports/index.js';
import { createWebhookEndpoint, headerOf, refuse } from '../../platform/webhook-endpoint.js';
import type { Interpretation, WebhookEndpoint } from '../../platform/webhook-endpoint.js';
import { fromCommentCreated, fromIssueUpdated, type Interpreted } from './to-trigger.js';
import type { JiraSites } from '../sites.js';
import { verifyJiraJwt } from './verify-jwt.js';
import { verifyJiraSignature } from './verify-signature.js';
import { CommentCreated, IssueUpdated } from './webhook-payload.js';

/** Jira's issue payloads carry every field of the issue; a generous bound. */
export const JIRA_BODY_LIMIT_BYTES = 2 * 1024 * 1024;

export interface JiraIngressDeps {
  /** How deliveries are signed: an admin webhook's secret, or the OAuth app's client secret. */
  signature: { kind: 'hmac'; secret: string } | { kind: 'jwt'; clientSecret: string };
  /** The sites the relay serves (and its account on each). */
  sites: JiraSites;
  allowedProjects: readonly string[];
  botHandle: string;
  triggerLabel: string;
  sink: TriggerSink;
  logger: Logger;
  clock?: Clock;
  commandWord?: string;
  /** Bound on the prompt context carried to a run. Default 12,000. */
  maxContextChars?: number;
}

const JSON_ONLY: ReadonlySet<string> = new Set(['application/json']);

export function createJiraIngress(deps: JiraIngressDeps): WebhookEndpoint {
  const clock = deps.clock ?? systemClock;

  return createWebhookEndpoint<{ webhookId: string }>({
    component: 'jira-ingress',
    logger: deps.logger,
    sink: deps.sink,
    maxBodyBytes: JIRA_BODY_LIMIT_BYTES,
    mediaTypes: JSON_ONLY,
    headers(req) {
      const webhookId = headerOf(req, 'x-atlassian-webhook-identifier');
      if (webhookId === undefined || webhookId.length > 200)
        return refuse(400, 'missing_header', 'X-Atlassian-Webhook-Identifier is required');
      return { webhookId };
    },
    async verify(raw, _headers, req, log) {
      const sig = deps.signature;
      if (sig.kind === 'hmac') {
        if (verifyJiraSignature(sig.secret, raw, headerOf(req, 'x-hub-signature')))
          return undefined;
        log.warn({}, 'Jira webhook with a missing or bad signature rejected');
        return refuse(401, 'bad_signature', 'X-Hub-Signature does not match');
      }
      if (verifyJiraJwt(sig.clientSecret, headerOf(req, 'authorization'), clock.now()))
        return undefined;
      log.warn({}, 'Jira webhook with a missing or bad JWT rejected');
      return refuse(401, 'bad_signature', 'the Authorization JWT does not match');
    },
    parse: (raw) => JSON.parse(raw.toString('utf8')) as unknown,
    async interpret(payload, _headers, log): Promise<Interpretation> {
      const event = (payload as { webhookEvent?: unknown } | null)?.webhookEvent;
      const isIssue = event === 'jira:issue_updated' || event === 'jira:issue_created';
      if (!isIssue && event !== 'comment_created') return ignored(event, 'other_event', log);
      const parsed = isIssue ? IssueUpdated.safeParse(payload) : CommentCreated.safeParse(payload);
      if (!parsed.success) return invalid(parsed.error.issues[0]?.path, log);
      const site = await deps.sites.resolve(hostOf(parsed.data.issue.self) ?? '');
      if (site === undefined) return ignored(event, 'unknown_site', log);
      const options = {
        site: site.site,
        baseUrl: site.baseUrl,
        allowedProjects: deps.allowedProjects,
        botHandle: deps.botHandle,
        commandWord: deps.commandWord ?? DEFAULT_COMMAND_WORD,
        triggerLabel: deps.triggerLabel,
        receivedAt: new Date(clock.now()).toISOString(),
        maxContextChars: deps.maxContextChars ?? 12_000,
        ...(site.accountId === undefined ? {} : { accountId: site.accountId }),
      };
      const interpreted: Interpreted =
        parsed.data.webhookEvent === 'comment_created'
          ? fromCommentCreated(parsed.data, options)
          : fromIssueUpdated(parsed.data, options);
      if (interpreted.kind === 'ignored') return ignored(event, interpreted.reason, log);
      const { trigger } = interpreted;
      return {
        kind: 'trigger',
        trigger,
        log: log.child({ event, threadKey: trigger.threadKey, deliveryId: trigger.deliveryId }),
      };
    },
  });
}

/** The host of the issue a payload is about (its `self`), lower case. */
function hostOf(self: string | undefined): string | undefined {
  if (self === undefined) return undefined;
  try {
    return new URL(self).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

function ignored(event: unknown, reason: string, log: Logger): Interpretation {
  log.debug({ event, reason }, 'Jira event ignored');
  return { kind: 'answer', answer: { status: 200, body: { ok: true, result: 'ignored', reason } } };
}

function invalid(path: readonly PropertyKey[] | undefined, log: Logger): Interpretation {
  const problem = path?.map(String).join('.') || 'payload';
  log.warn({ problem }, 'invalid Jira payload');
  return { kind: 'answer', answer: refuse(400, 'invalid_payload', `unexpected ${problem}`) };
}
