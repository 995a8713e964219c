/**
 * The Teams notifier (Notifier port): every message is an activity in the thread's
 * conversation (a channel thread: `{conversation};messageid={root}`; a chat: the chat), sent
 * to the conversation's `serviceUrl` (the one its activities came from, else the cloud's
 * published one for proactive messages). The run's status card is edited in place (`PUT
 * …/activities/{id}`); an edit to the same card sends nothing. Bots cannot react to messages
 * in Teams: reactions are skipped. The Bot Connector has no way to find an earlier message by
 * a key, so a retry after an answer that was lost may post a second time.
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
  type PostResult,
} from '../../core/ports/index.js';
import { decodeThreadKey } from '../../core/thread-key.js';
import type { MessageRef } from '../../core/trigger.js';
import { threadConversationId } from '../api/activity.js';
import type { ConnectorClient } from '../api/connector-client.js';
import type { ShownRuns } from '../api/shown-runs.js';
import { renderTeamsMessage, type TeamsRenderOptions } from '../render/render-message.js';
import { toDeliveryError } from './delivery-error.js';
import { refusalLoggingCall } from '../../platform/delivery-errors.js';

export interface TeamsNotifierDeps {
  client: ConnectorClient;
  /** The serviceUrl to reach a conversation at (heard from it, or the cloud's). */
  serviceUrlOf(conversation: string): string | undefined;
  render: TeamsRenderOptions;
  /** Told every run view put on a status card (a card's refresh is answered from them). */
  shown?: ShownRuns;
  logger: Logger;
  clock?: Clock;
}

function addressOf(threadKey: string): { conversation: string; conversationId: string } {
  const addr = decodeThreadKey(threadKey);
  if (addr?.platform !== 'teams')
    throw new DeliveryError('invalid', `not a Teams thread key: ${threadKey}`, false);
  return {
    conversation: addr.conversation,
    conversationId: threadConversationId(addr.conversation, addr.root),
  };
}

export function createTeamsNotifier(deps: TeamsNotifierDeps): Notifier {
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger.child({ component: 'teams-notifier' });
  const shown = createShownMemo();

  const call = refusalLoggingCall('Teams', logger, toDeliveryError, () => clock.now());

  function serviceUrl(conversation: string): string {
    const url = deps.serviceUrlOf(conversation);
    if (url === undefined)
      throw new DeliveryError('unavailable', 'no serviceUrl known for this conversation yet', true);
    return url;
  }

  return {
    platform: 'teams',

    async post(to: Destination, message: MessageModel): Promise<PostResult> {
      const { conversation, conversationId } = addressOf(to.threadKey);
      const activity = renderTeamsMessage(message, deps.render);
      if (message.type === 'run_status') deps.shown?.remember(message.run);
      const id = await call(to.threadKey, 'send activity', () =>
        deps.client.send(serviceUrl(conversation), conversationId, activity),
      );
      shown.remember(id, JSON.stringify(activity));
      return { ref: { threadKey: to.threadKey, id } };
    },

    async update(ref: MessageRef, message: MessageModel): Promise<void> {
      const { conversation, conversationId } = addressOf(ref.threadKey);
      const activity = renderTeamsMessage(message, deps.render);
      if (message.type === 'run_status') deps.shown?.remember(message.run);
      const rendered = JSON.stringify(activity);
      if (shown.says(ref.id, rendered)) return;
      await call(ref.threadKey, 'update activity', () =>
        deps.client.update(serviceUrl(conversation), conversationId, ref.id, activity),
      );
      shown.remember(ref.id, rendered);
    },

    // Teams has no API for a bot to react to a message.
    async react() {},
    async unreact() {},
  };
}
