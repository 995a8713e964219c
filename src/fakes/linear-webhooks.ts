/**
 * The webhooks the fake Linear sends: `AgentSessionEvent` bodies typed by the SDK's webhook
 * payload types, a person's message in a session as a `prompted` event carries it, and the
 * signed POST (`Linear-Signature`: hex HMAC-SHA256 of the raw body; `Linear-Delivery`).
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { LinearDocument } from '@linear/sdk';
import type { FakeLinearIssue, FakeLinearSession, FakeLinearWorkspace } from './linear-model.js';

export interface SentWebhook {
  deliveryId: string;
  status: number;
  body: string;
  answer: unknown;
}

/** The person of the fake's sessions (Ada, whatever id a test gives her). */
const person = (id: string) => ({
  id,
  name: 'Ada',
  email: `${id}@example.test`,
  url: `https://linear.example.test/profiles/${id}`,
});

/** The `AgentSessionEvent` of a session on its issue, `webhookTimestamp` now. */
export function agentSessionEvent(input: {
  action: 'created' | 'prompted';
  session: FakeLinearSession;
  issue: FakeLinearIssue;
  ws: FakeLinearWorkspace;
}): LinearDocument.AgentSessionEventWebhookPayload {
  const { action, session, issue, ws } = input;
  const at = new Date().toISOString();
  return {
    type: 'AgentSessionEvent',
    action,
    // A Date here, an ISO string on the wire, as JSON writes it.
    createdAt: new Date(at),
    organizationId: session.organizationId,
    oauthClientId: 'fake-client',
    appUserId: ws.appUserId,
    webhookId: `webhook-${session.organizationId}`,
    webhookTimestamp: Date.now(),
    agentSession: {
      id: session.id,
      type: 'commentThread',
      status: action === 'created' ? 'pending' : 'active',
      appUserId: ws.appUserId,
      organizationId: session.organizationId,
      createdAt: at,
      updatedAt: at,
      creatorId: session.creatorId,
      creator: person(session.creatorId),
      issueId: issue.id,
      issue: {
        id: issue.id,
        identifier: issue.identifier,
        title: issue.title,
        description: issue.description,
        url: issue.url,
        teamId: issue.teamId,
        team: { id: issue.teamId, key: ws.team.key, name: ws.team.key },
      },
      comment: null,
    },
  };
}

/** A person's message in a session, as a `prompted` event carries it. */
export function promptActivity(
  sessionId: string,
  body: string,
  opts: { user?: { id: string }; signal?: string },
): LinearDocument.AgentActivityWebhookPayload {
  const at = new Date().toISOString();
  const userId = opts.user?.id ?? 'user-ada';
  return {
    id: randomUUID(),
    agentSessionId: sessionId,
    createdAt: at,
    updatedAt: at,
    userId,
    user: person(userId),
    ...(opts.signal ? { signal: opts.signal } : {}),
    content: { type: 'prompt', body },
  };
}

/** POST `body` to the webhook, signed with its secret (or `opts.secret`), as Linear does. */
export async function postSignedWebhook(
  webhook: { url: string; secret: string },
  body: string,
  headers: Record<string, string> = {},
  opts: { deliveryId?: string; secret?: string } = {},
): Promise<SentWebhook> {
  const deliveryId = opts.deliveryId ?? randomUUID();
  const signature = createHmac('sha256', opts.secret ?? webhook.secret)
    .update(body)
    .digest('hex');
  const res = await fetch(webhook.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'linear-delivery': deliveryId,
      'linear-event': 'AgentSessionEvent',
      'linear-signature': signature,
      'user-agent': 'Linear-Webhook',
      ...headers,
    },
    body,
  });
  const text = await res.text();
  let answer: unknown = text;
  try {
    answer = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { deliveryId, status: res.status, body, answer };
}
