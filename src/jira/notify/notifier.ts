/**
 * The Jira notifier (Notifier port): every message is a comment on the issue the thread
 * names, in ADF (REST v3). The run's status comment is edited in place (`PUT …/comment/{id}`);
 * an edit to the same words sends nothing. Each posted comment carries the outbox's key as a
 * comment property (`agent-relay`), invisible on the issue, so a retry after a lost answer
 * finds the comment it already made instead of posting a second. Jira has no reactions on
 * comments: reactions are skipped. The first status comment of a run may move the issue
 * (JIRA_START_TRANSITION, never to a done status).
 */
import type { MessageModel } from '../../core/message/message-model.js';
import { createShownMemo } from '../../core/message/shown-memo.js';
import {
  DeliveryError,
  systemClock,
  type Clock,
  type Destination,
  type Logger,
  type Notifier,
  type PostOptions,
  type PostResult,
} from '../../core/ports/index.js';
import { decodeThreadKey } from '../../core/thread-key.js';
import type { MessageRef } from '../../core/trigger.js';
import type { JiraClient } from '../api/jira-client.js';
import { decodeJiraMessageId, encodeJiraMessageId, issueUrl } from '../api/message-ref.js';
import { renderJiraMessage, type JiraRenderOptions } from '../render/render-message.js';
import { toDeliveryError } from './delivery-error.js';
import { refusalLoggingCall } from '../../platform/delivery-errors.js';
import type { JiraSites } from '../sites.js';
import { startTransition } from './start-transition.js';

/** The comment property that carries the outbox's key. */
export const NOTIFICATION_PROPERTY = 'agent-relay';

export type JiraNotifierDeps = {
  /** Where a thread's site is written to; or one client for every thread. */
  render: JiraRenderOptions;
  logger: Logger;
  clock?: Clock;
  /** The transition (name or target status) to take when a run's status comment is first posted. */
  startTransition?: string;
} & ({ sites: JiraSites } | { client: JiraClient; baseUrl: string });

function addressOf(threadKey: string): { site: string; issueKey: string } {
  const addr = decodeThreadKey(threadKey);
  if (addr?.platform !== 'jira')
    throw new DeliveryError('invalid', `not a Jira thread key: ${threadKey}`, false);
  return addr;
}

function propertyKey(comment: { properties?: unknown }): string | undefined {
  if (!Array.isArray(comment.properties)) return undefined;
  for (const p of comment.properties as { key?: unknown; value?: unknown }[]) {
    const value = p?.value as { notification?: unknown } | undefined;
    if (p?.key === NOTIFICATION_PROPERTY && typeof value?.notification === 'string')
      return value.notification;
  }
  return undefined;
}

export function createJiraNotifier(deps: JiraNotifierDeps): Notifier {
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger.child({ component: 'jira-notifier' });
  const shown = createShownMemo();

  /** The thread's site and issue; a site the relay no longer serves is not retried. */
  async function placeOf(threadKey: string) {
    const { site, issueKey } = addressOf(threadKey);
    const served =
      'sites' in deps
        ? await deps.sites.resolve(site)
        : { site, baseUrl: deps.baseUrl, client: deps.client };
    if (served === undefined)
      throw new DeliveryError('invalid', `agent-relay does not serve the Jira site ${site}`, false);
    return { ...served, issueKey };
  }

  const call = refusalLoggingCall('Jira', logger, toDeliveryError, () => clock.now());

  async function moveOnStart(
    client: JiraClient,
    issueKey: string,
    threadKey: string,
  ): Promise<void> {
    if (deps.startTransition === undefined) return;
    try {
      const moved = await startTransition(client, issueKey, deps.startTransition);
      logger.info({ threadKey, transition: deps.startTransition, moved }, 'start transition');
    } catch (err) {
      logger.warn({ threadKey, err: String(err) }, 'could not move the issue; left as it is');
    }
  }

  return {
    platform: 'jira',

    async post(to: Destination, message: MessageModel, options?: PostOptions): Promise<PostResult> {
      const { client, baseUrl, issueKey } = await placeOf(to.threadKey);
      const body = renderJiraMessage(message, deps.render);
      const key = options?.key;
      const refOf = (id: string): MessageRef => ({
        threadKey: to.threadKey,
        id: encodeJiraMessageId({ kind: 'comment', commentId: id }),
        url: issueUrl(baseUrl, issueKey, id),
      });
      if (key !== undefined && options?.mayExist !== undefined) {
        const comments = await call(to.threadKey, 'list comments', () =>
          client.recentComments(issueKey),
        );
        const earlier = comments.find((c) => propertyKey(c as { properties?: unknown }) === key);
        if (earlier !== undefined) {
          logger.info(
            { threadKey: to.threadKey, key },
            'notification was already posted; not again',
          );
          return { ref: refOf(earlier.id) };
        }
      }
      const made = await call(to.threadKey, 'post comment', () =>
        client.addComment(
          issueKey,
          body,
          key === undefined
            ? undefined
            : { key: NOTIFICATION_PROPERTY, value: { notification: key } },
        ),
      );
      const ref = refOf(made.id);
      shown.remember(ref.id, JSON.stringify(body));
      if (message.type === 'run_status') await moveOnStart(client, issueKey, to.threadKey);
      return { ref };
    },

    async update(ref: MessageRef, message: MessageModel): Promise<void> {
      const id = decodeJiraMessageId(ref.id);
      if (id?.kind !== 'comment')
        throw new DeliveryError('invalid', `cannot edit Jira message ${ref.id}`, false);
      const body = renderJiraMessage(message, deps.render);
      const rendered = JSON.stringify(body);
      if (shown.says(ref.id, rendered)) return;
      const { client, issueKey } = await placeOf(ref.threadKey);
      await call(ref.threadKey, 'edit comment', () =>
        client.updateComment(issueKey, id.commentId, body),
      );
      shown.remember(ref.id, rendered);
    },

    // Jira's REST API has no reactions on comments or issues.
    async react() {},
    async unreact() {},
  };
}
