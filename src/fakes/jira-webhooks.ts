/**
 * The fake Jira's webhooks, shaped like Atlassian's "Webhooks" page describes them
 * (`webhookEvent`, `timestamp`, `user`, `issue` with `self`, `key` and `fields`, `changelog`
 * items with `field`/`fieldId`/`from`/`to`/`fromString`/`toString`, `comment` with its
 * wiki-text `body`), signed as an admin webhook with a secret is: `X-Hub-Signature:
 * sha256=<HMAC-SHA256 hex of the raw body>`, with the delivery's
 * `X-Atlassian-Webhook-Identifier`.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { FakeJiraIssue, JiraModel } from './jira-model.js';

export function signJira(body: string | Buffer, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * The JWT Jira puts in `Authorization: Bearer …` on an OAuth app's webhooks, signed (HS256)
 * with the app's client secret. Atlassian does not list its claims; this one carries `iat`
 * and `exp` (three minutes), which the relay checks only when present.
 */
export function jiraWebhookJwt(clientSecret: string, now = Date.now()): string {
  const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const iat = Math.floor(now / 1000);
  const body = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ iat, exp: iat + 180 })}`;
  return `${body}.${createHmac('sha256', clientSecret).update(body).digest('base64url')}`;
}

export interface SendOptions {
  /** Sign with this secret instead of the webhook's (a forged delivery). */
  secret?: string;
  /** Omit the signature. */
  unsigned?: boolean;
  /** The delivery's identifier (a redelivery keeps it). */
  identifier?: string;
}

/**
 * `site.url`: the root its payloads' `self` links name; `site.secret`: what deliveries are
 * signed with, an admin webhook's secret (`X-Hub-Signature`) or, with `jwt`, the OAuth app's
 * client secret (`Authorization: Bearer <JWT>`).
 */
export function createJiraWebhooks(
  model: JiraModel,
  site: { url: string; secret: string; jwt?: boolean },
) {
  let changelog = 50_000;
  const userOf = (accountId: string) => {
    const u = model.users.get(accountId);
    return {
      self: `${site.url}/rest/api/2/user?accountId=${accountId}`,
      accountId,
      displayName: u?.displayName ?? accountId,
      accountType: u?.accountType ?? 'atlassian',
      active: true,
    };
  };
  const issueOf = (issue: FakeJiraIssue) => ({
    id: issue.id,
    self: `${site.url}/rest/api/2/issue/${issue.id}`,
    key: issue.key,
    fields: {
      summary: issue.summary,
      description: issue.description,
      labels: issue.labels,
      status: { name: issue.status },
      project: { key: issue.project, name: issue.project },
      assignee: issue.assigneeId === undefined ? null : userOf(issue.assigneeId),
    },
  });

  async function send(body: unknown, options: SendOptions = {}, to: string): Promise<Response> {
    const raw = JSON.stringify(body);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-atlassian-webhook-identifier': options.identifier ?? randomUUID(),
      'x-atlassian-webhook-flow': 'Primary',
    };
    if (!options.unsigned && site.jwt)
      headers.authorization = `Bearer ${jiraWebhookJwt(options.secret ?? site.secret)}`;
    else if (!options.unsigned)
      headers['x-hub-signature'] = signJira(raw, options.secret ?? site.secret);
    return fetch(to, { method: 'POST', headers, body: raw });
  }

  return {
    issueOf,
    send,
    /** `jira:issue_updated`: `by` put `label` on the issue. */
    labelAdded(issue: FakeJiraIssue, by: string, label: string) {
      const before = issue.labels.join(' ');
      issue.labels = [...issue.labels, label];
      return {
        timestamp: Date.now(),
        webhookEvent: 'jira:issue_updated',
        issue_event_type_name: 'issue_updated',
        user: userOf(by),
        issue: issueOf(issue),
        changelog: {
          id: String(changelog++),
          items: [
            {
              field: 'labels',
              fieldtype: 'jira',
              fieldId: 'labels',
              from: null,
              fromString: before,
              to: null,
              toString: issue.labels.join(' '),
            },
          ],
        },
      };
    },
    /** `jira:issue_created`: `by` created the issue (with its labels and assignee). */
    created(issue: FakeJiraIssue, by: string) {
      return {
        timestamp: Date.now(),
        webhookEvent: 'jira:issue_created',
        issue_event_type_name: 'issue_created',
        user: userOf(by),
        issue: issueOf(issue),
      };
    },
    /** `jira:issue_updated`: `by` assigned the issue to `to`. */
    assigned(issue: FakeJiraIssue, by: string, to: string) {
      const from = issue.assigneeId;
      issue.assigneeId = to;
      return {
        timestamp: Date.now(),
        webhookEvent: 'jira:issue_updated',
        issue_event_type_name: 'issue_assigned',
        user: userOf(by),
        issue: issueOf(issue),
        changelog: {
          id: String(changelog++),
          items: [
            {
              field: 'assignee',
              fieldtype: 'jira',
              fieldId: 'assignee',
              from: from ?? null,
              fromString: null,
              to,
              toString: userOf(to).displayName,
            },
          ],
        },
      };
    },
    /** `comment_created`: `author` wrote `text` (wiki markup) on the issue; the comment is kept. */
    commentCreated(issue: FakeJiraIssue, author: string, text: string) {
      const comment = model.addComment(issue.key, author, text);
      return {
        timestamp: Date.now(),
        webhookEvent: 'comment_created',
        comment: {
          self: `${site.url}/rest/api/2/issue/${issue.id}/comment/${comment.id}`,
          id: comment.id,
          author: userOf(author),
          body: text,
          updateAuthor: userOf(author),
          created: new Date(comment.created).toISOString(),
          updated: new Date(comment.created).toISOString(),
          jsdPublic: true,
        },
        issue: issueOf(issue),
      };
    },
  };
}
