/**
 * A verified Jira webhook as a neutral Trigger, or the reason it is ignored. One thread per
 * issue (`jira:{site}:{issue key}`), so a later comment follows up on the issue's run:
 *
 * - `jira:issue_updated` whose changelog adds the trigger label (or `factory:<alias>`), or
 *   assigns the issue to the relay's account, and `jira:issue_created` with that label or
 *   that assignee: a fresh run whose prompt is the issue's key, summary and description,
 *   bounded;
 * - `comment_created` that mentions the relay (`@<handle>` as text, or a real mention of its
 *   account, `[~accountid:…]`), or has a line starting with the command word, outside code
 *   and quotes: the words after it, in the same grammar as Slack and GitHub.
 *
 * Another site's issue, a project not allowed, the relay's own comments and changes: ignored.
 * The delivery id comes from the signed body (the comment's id, the changelog's id), so a
 * redelivery is one trigger whatever its identifier header says.
 */
import { findAddressedWords } from '../../core/command/find-mention.js';
import { encodeThreadKey, jiraProjectOf, settingsScopeOf } from '../../core/thread-key.js';
import type { Trigger } from '../../core/trigger.js';
import { encodeJiraMessageId, issueUrl } from '../api/message-ref.js';
import { addressableText, bodyText } from './body-text.js';
import type {
  CommentCreatedEvent,
  IssueUpdatedEvent,
  JiraIssuePayload,
} from './webhook-payload.js';

export type Interpreted =
  { kind: 'trigger'; trigger: Trigger } | { kind: 'ignored'; reason: string };

export interface ToTriggerOptions {
  site: string;
  baseUrl: string;
  allowedProjects: readonly string[];
  botHandle: string;
  commandWord: string;
  triggerLabel: string;
  /** The relay's own account, when known. */
  accountId?: string;
  receivedAt: string;
  maxContextChars: number;
}

const FACTORY_LABEL = /^factory:([A-Za-z0-9][A-Za-z0-9._-]{0,127})$/i;

function bounded(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The issue's thread and place, or why it is not ours. */
function placeOf(
  issue: JiraIssuePayload,
  o: ToTriggerOptions,
): { threadKey: string; project: string } | { ignored: string } {
  let host: string | undefined;
  try {
    host = issue.self === undefined ? undefined : new URL(issue.self).hostname.toLowerCase();
  } catch {
    host = undefined;
  }
  if (host !== o.site) return { ignored: 'unknown_site' };
  let threadKey: string;
  try {
    threadKey = encodeThreadKey({ platform: 'jira', site: o.site, issueKey: issue.key });
  } catch {
    return { ignored: 'malformed_issue_key' };
  }
  const project = jiraProjectOf(issue.key).toUpperCase();
  const declared = issue.fields?.project?.key?.toUpperCase();
  if (declared !== undefined && declared !== project) return { ignored: 'malformed_issue_key' };
  if (!o.allowedProjects.includes(project)) return { ignored: 'project_not_allowed' };
  return { threadKey, project };
}

function issueContext(issue: JiraIssuePayload, o: ToTriggerOptions) {
  const url = issueUrl(o.baseUrl, issue.key);
  return {
    repo: jiraProjectOf(issue.key),
    number: Number(issue.key.slice(issue.key.lastIndexOf('-') + 1)),
    title: issue.fields?.summary ?? issue.key,
    body: bounded(bodyText(issue.fields?.description).trim(), o.maxContextChars),
    url,
    isPullRequest: false,
  };
}

function tokens(labels: string | null | undefined): string[] {
  return (labels ?? '').split(/\s+/).filter(Boolean);
}

export function fromIssueUpdated(event: IssueUpdatedEvent, o: ToTriggerOptions): Interpreted {
  const place = placeOf(event.issue, o);
  if ('ignored' in place) return { kind: 'ignored', reason: place.ignored };
  const person = event.user;
  if (person === undefined) return { kind: 'ignored', reason: 'no_user' };
  if (o.accountId !== undefined && person.accountId === o.accountId)
    return { kind: 'ignored', reason: 'self' };
  const items = event.changelog?.items ?? [];
  const isField = (i: (typeof items)[number], name: string) =>
    i.fieldId === name || i.field?.toLowerCase() === name;
  const created = event.webhookEvent === 'jira:issue_created';
  // A new issue's labels and assignee are all new; an update's are what its changelog adds.
  const added = created
    ? (event.issue.fields?.labels ?? [])
    : items
        .filter((i) => isField(i, 'labels'))
        .flatMap((i) => {
          const before = new Set(tokens(i.fromString).map((l) => l.toLowerCase()));
          return tokens(i.toString).filter((l) => !before.has(l.toLowerCase()));
        });
  const label = added.find(
    (l) => l.toLowerCase() === o.triggerLabel.toLowerCase() || FACTORY_LABEL.test(l),
  );
  const assigned =
    o.accountId !== undefined &&
    (created
      ? event.issue.fields?.assignee?.accountId === o.accountId
      : items.some((i) => isField(i, 'assignee') && i.to === o.accountId));
  if (label === undefined && !assigned) return { kind: 'ignored', reason: 'no_trigger_change' };

  const issue = event.issue;
  const summary = issue.fields?.summary ?? '';
  const description = bodyText(issue.fields?.description).trim();
  const prompt = bounded(
    [`${issue.key}: ${summary}`.trim(), description].filter(Boolean).join('\n\n'),
    o.maxContextChars,
  );
  const factoryAlias = label === undefined ? undefined : FACTORY_LABEL.exec(label)?.[1];
  const change = created ? 'created' : (event.changelog?.id ?? String(event.timestamp ?? ''));
  const url = issueUrl(o.baseUrl, issue.key);
  return {
    kind: 'trigger',
    trigger: {
      platform: 'jira',
      kind: label !== undefined ? 'label' : 'assigned',
      threadKey: place.threadKey,
      actor: {
        id: person.accountId,
        ...(person.displayName ? { name: person.displayName } : {}),
      },
      // A fresh run's prompt, whatever it starts with (a summary "Cancel …").
      text: factoryAlias === undefined ? prompt : `factory ${factoryAlias} ${prompt}`,
      ...(factoryAlias === undefined ? { freshRun: true } : {}),
      addressed: true,
      context: { issue: issueContext(issue, o), permalink: url },
      deliveryId: `jira:${o.site}:issue:${issue.id}:change:${change}`,
      receivedAt: o.receivedAt,
      settingsScope: settingsScopeOf(place.threadKey) ?? place.threadKey,
      triggerMessage: {
        threadKey: place.threadKey,
        id: encodeJiraMessageId({ kind: 'issue', issueKey: issue.key }),
        url,
      },
      ...(factoryAlias === undefined ? {} : { factoryAlias }),
    },
  };
}

/** A real mention of the relay's account reads as its handle. */
function withHandle(text: string, accountId: string, o: ToTriggerOptions): string {
  return text.split(`[~accountid:${accountId}]`).join(`@${o.botHandle}`);
}

export function fromCommentCreated(event: CommentCreatedEvent, o: ToTriggerOptions): Interpreted {
  const place = placeOf(event.issue, o);
  if ('ignored' in place) return { kind: 'ignored', reason: place.ignored };
  const { comment, issue } = event;
  // Until the relay knows its own account it cannot tell its own comments (which may quote
  // its handle) from a person's: it reads none, rather than answer itself.
  if (o.accountId === undefined) return { kind: 'ignored', reason: 'own_account_unknown' };
  if (comment.author.accountId === o.accountId) return { kind: 'ignored', reason: 'self' };
  if (comment.author.accountType !== undefined && comment.author.accountType !== 'atlassian')
    return { kind: 'ignored', reason: 'bot' };
  const body = withHandle(bodyText(comment.body), o.accountId, o).replace(/\r\n?/g, '\n');
  const masked = addressableText(body);
  const found = findAddressedWords(masked, o.botHandle, o.commandWord);
  if (found === undefined) return { kind: 'ignored', reason: 'not_addressed' };
  if (found.words === '' && !found.explicit)
    return { kind: 'ignored', reason: 'mention_without_words' };
  // The masked text keeps every offset: the words are the same stretch of the original, with
  // its code and quotes as written. They end the text (but for blanks), so the last match is it.
  const at = found.words === '' ? -1 : masked.lastIndexOf(found.words);
  const words = at < 0 ? found.words : body.slice(at, at + found.words.length);
  const url = issueUrl(o.baseUrl, issue.key, comment.id);
  return {
    kind: 'trigger',
    trigger: {
      platform: 'jira',
      kind: 'issue_comment',
      threadKey: place.threadKey,
      actor: {
        id: comment.author.accountId,
        ...(comment.author.displayName ? { name: comment.author.displayName } : {}),
      },
      text: bounded(words === '' ? 'help' : words, o.maxContextChars),
      addressed: true,
      context: {
        issue: issueContext(issue, o),
        comment: { url, body: bounded(body, o.maxContextChars) },
        permalink: url,
      },
      deliveryId: `jira:${o.site}:comment:${comment.id}`,
      receivedAt: o.receivedAt,
      settingsScope: settingsScopeOf(place.threadKey) ?? place.threadKey,
      // No trigger message: Jira has no reactions, so a follow-up is confirmed by a comment.
    },
  };
}
