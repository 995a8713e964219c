/**
 * The Slack side of the outbox (Notifier port): post, edit in place, react, and read a
 * thread's earlier messages. Every failure leaves as a `DeliveryError` at once (a 429 with
 * its Retry-After), so the outbox decides when to try again.
 */
import { createShownMemo } from '../../core/message/shown-memo.js';
import type { MessageModel, ReactionName } from '../../core/message/message-model.js';
import type {
  Clock,
  Destination,
  Logger,
  Notifier,
  PostOptions,
  PostResult,
  ReactOptions,
} from '../../core/ports/index.js';
import { DeliveryError } from '../../core/ports/index.js';
import type { MessageRef } from '../../core/trigger.js';
import { slackErrorName, toDeliveryError } from '../api/delivery-errors.js';
import type { SlackMessage } from '../render/render-blocks.js';
import { renderSlackMessage } from '../render/render-blocks.js';
import { messageId, parseMessageId, slackAddress, slackThreadKey } from '../api/slack-address.js';
import type { ThreadMessage } from './thread-messages.js';
import { fetchThreadMessages } from './thread-messages.js';
import type { BotTokenSource } from '../api/bot-tokens.js';
import { fixedBotToken } from '../api/bot-tokens.js';
import { createResponseUrlPoster } from './response-url.js';
import type { WebClient } from '../api/web-client.js';
import { createWorkspaceClients } from '../api/workspace-clients.js';
import { createHistoryLimit } from './history-limit.js';
import { findMarked, NOTIFICATION_EVENT_TYPE } from './find-marked.js';
import { z } from 'zod';
import { createAgentSessions } from './agent-sessions.js';

export interface SlackNotifierDeps {
  /** One workspace: its bot token. */
  botToken?: string;
  /** Any number of workspaces: the token of each (takes precedence over `botToken`). */
  tokens?: BotTokenSource;
  apiUrl?: string;
  logger: Logger;
  clock?: Clock;
  /** Thread context bounds (defaults: 30 messages, 8,000 characters). */
  maxThreadMessages?: number;
  maxThreadChars?: number;
  /** Per-request timeout of the Web API client (default 10 s). */
  timeoutMs?: number;
  /** Told after a run's status or outcome reached its thread (App Home refreshes). */
  onRunShown?: (threadKey: string, requesterId: string | undefined) => void;
}

export type SlackNotifier = Notifier & { readonly platform: 'slack' };

/** Slack emoji names for the reactions the core asks for. */
export const REACTION_EMOJI: Record<ReactionName, string> = {
  seen: 'eyes',
  accepted: 'ok_hand',
  cancel_requested: 'octagonal_sign',
  succeeded: 'white_check_mark',
  failed: 'x',
  blocked: 'double_vertical_bar',
  cancelled: 'no_entry_sign',
};

const Posted = z.object({ ts: z.string().regex(/^\d{1,20}\.\d{1,20}$/) });

const PostedEphemeral = z.object({ message_ts: z.string().optional() });

/** Slack's answers when the bot may not post in a channel. */
const NOT_A_MEMBER = new Set(['not_in_channel', 'channel_not_found']);

/** Slack rejected our blocks (a renderer bug): the words still reach the person. */
const BLOCKS_REJECTED = new Set(['invalid_blocks', 'invalid_blocks_format']);

export function createSlackNotifier(deps: SlackNotifierDeps): SlackNotifier {
  const tokens = deps.tokens ?? fixedBotToken(deps.botToken ?? '');
  const clients = createWorkspaceClients(tokens, {
    apiUrl: deps.apiUrl,
    logger: deps.logger,
    timeoutMs: deps.timeoutMs,
  });
  /** The workspace's client; a token that cannot be read is a delivery failure to retry. */
  async function clientFor(team: string): Promise<WebClient> {
    try {
      return await clients(team);
    } catch (err) {
      if (err instanceof DeliveryError) throw err;
      throw new DeliveryError(
        'unavailable',
        "the workspace's token could not be read",
        true,
        undefined,
        { cause: err },
      );
    }
  }
  const log = deps.logger.child({ component: 'slack-notifier' });
  const shown = createShownMemo();
  const responses = createResponseUrlPoster({
    apiUrl: deps.apiUrl,
    timeoutMs: deps.timeoutMs ?? 10_000,
    logger: deps.logger,
  });
  const bounds = {
    maxMessages: deps.maxThreadMessages ?? 30,
    maxChars: deps.maxThreadChars ?? 8_000,
  };
  const history = createHistoryLimit(log);

  /** Call with blocks; if Slack rejects the blocks themselves, once more with text only. */
  async function call<T>(
    method: string,
    send: (m: Partial<SlackMessage>) => Promise<T>,
    message: SlackMessage,
  ): Promise<T> {
    try {
      return await send(message);
    } catch (err) {
      const name = slackErrorName(err);
      if (name === undefined || !BLOCKS_REJECTED.has(name)) throw toDeliveryError(err, method);
      log.error({ err, method }, 'Slack rejected the rendered blocks; sending text only');
      try {
        return await send({ text: message.text });
      } catch (again) {
        throw toDeliveryError(again, method);
      }
    }
  }

  /** Take our reactions off a message; one that is not there is no error. */
  async function removeReactions(
    target: MessageRef,
    reactions: readonly ReactionName[],
  ): Promise<void> {
    const { channel, ts } = parseMessageId(target);
    const names = new Set(reactions.map((r) => REACTION_EMOJI[r]));
    if (names.size === 0) return;
    const client = await clientFor(slackAddress(target.threadKey).team);
    for (const name of names) {
      try {
        await client.reactions.remove({ channel, timestamp: ts, name });
      } catch (err) {
        const code = slackErrorName(err);
        if (code === 'no_reaction' || code === 'message_not_found') continue;
        throw toDeliveryError(err, 'reactions.remove');
      }
    }
  }

  /**
   * A public post the bot may not make (not a member of the channel): when the caller of a
   * slash command is known, they are told privately how to fix it; the failure still stands.
   */
  async function postPublic<T>(to: Destination, send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (err) {
      const name = slackErrorName(err instanceof DeliveryError ? err.cause : err);
      if (to.responseUrl !== undefined && name !== undefined && NOT_A_MEMBER.has(name)) {
        const { channel } = slackAddress(to.threadKey);
        const text =
          `I can't post in <#${channel}> because I'm not a member of it, so your run's status ` +
          `can't be shown there. Invite me with \`/invite\` and the bot's name, or use me in a ` +
          `channel I'm in.`;
        await responses.post(to.responseUrl, { text, blocks: [] });
      }
      throw err;
    }
  }

  const sessions = createAgentSessions({ clientFor, logger: deps.logger });

  const notifier: SlackNotifier = {
    platform: 'slack',

    setSessionStatus: (threadKey, status) => sessions.set(threadKey, status),

    async post(to: Destination, model: MessageModel, options?: PostOptions): Promise<PostResult> {
      const addr = slackAddress(to.threadKey);
      const client = await clientFor(addr.team);
      const message = renderSlackMessage(model);
      const thread = addr.threadTs === '' ? {} : { thread_ts: addr.threadTs };
      const answer = (ts: string): PostResult => {
        if (addr.threadTs !== '') {
          return { ref: { threadKey: to.threadKey, id: messageId(addr.channel, ts) } };
        }
        const newThreadKey = slackThreadKey(addr.team, addr.channel, ts);
        return { ref: { threadKey: newThreadKey, id: messageId(addr.channel, ts) }, newThreadKey };
      };
      if (to.privateTo !== undefined) {
        const user = to.privateTo;
        // A slash command's private answer: through its response_url first (response-url.ts).
        if (to.responseUrl !== undefined && (await responses.post(to.responseUrl, message))) {
          return { ref: { threadKey: to.threadKey, id: messageId(addr.channel, '0.0') } };
        }
        const raw = await call(
          'chat.postEphemeral',
          (m) =>
            client.chat.postEphemeral({
              channel: addr.channel,
              user,
              text: m.text ?? '',
              ...(m.blocks ? { blocks: m.blocks } : {}),
              ...thread,
            }),
          message,
        );
        const ts = PostedEphemeral.safeParse(raw).data?.message_ts ?? '0.0';
        return { ref: { threadKey: to.threadKey, id: messageId(addr.channel, ts) } };
      }
      const key = options?.key;
      if (key !== undefined && options?.mayExist !== undefined) {
        const found = await findMarked(log, client, addr, key, options.mayExist.since, history);
        if (found !== undefined) {
          log.info({ threadKey: to.threadKey, key }, 'notification was already posted; not again');
          return answer(found);
        }
      }
      const raw = await postPublic(to, () =>
        call(
          'chat.postMessage',
          (m) =>
            client.chat.postMessage({
              channel: addr.channel,
              text: m.text ?? '',
              ...(m.blocks ? { blocks: m.blocks } : {}),
              ...thread,
              unfurl_links: false,
              unfurl_media: false,
              ...(key === undefined
                ? {}
                : { metadata: { event_type: NOTIFICATION_EVENT_TYPE, event_payload: { key } } }),
            }),
          message,
        ),
      );
      const posted = Posted.safeParse(raw);
      if (!posted.success) {
        throw new DeliveryError('unknown', 'Slack chat.postMessage: answered without a ts', false);
      }
      shown.remember(messageId(addr.channel, posted.data.ts), JSON.stringify(message));
      return answer(posted.data.ts);
    },

    async update(ref: MessageRef, model: MessageModel): Promise<void> {
      const { channel, ts } = parseMessageId(ref);
      const client = await clientFor(slackAddress(ref.threadKey).team);
      const message = renderSlackMessage(model);
      // An edit to what the message already says would change nothing: no request.
      const rendered = JSON.stringify(message);
      if (shown.says(ref.id, rendered)) return;
      await call(
        'chat.update',
        (m) =>
          client.chat.update({
            channel,
            ts,
            text: m.text ?? '',
            ...(m.blocks ? { blocks: m.blocks } : { blocks: [] }),
          }),
        message,
      );
      shown.remember(ref.id, rendered);
    },

    async unreact(target: MessageRef, reactions: readonly ReactionName[]): Promise<void> {
      await removeReactions(target, reactions);
    },

    async react(target: MessageRef, reaction: ReactionName, options?: ReactOptions): Promise<void> {
      const { channel, ts } = parseMessageId(target);
      const keep = REACTION_EMOJI[reaction];
      await removeReactions(
        target,
        (options?.replaces ?? []).filter((r) => REACTION_EMOJI[r] !== keep),
      );
      const client = await clientFor(slackAddress(target.threadKey).team);
      try {
        await client.reactions.add({ channel, timestamp: ts, name: REACTION_EMOJI[reaction] });
      } catch (err) {
        if (slackErrorName(err) === 'already_reacted') return;
        throw toDeliveryError(err, 'reactions.add');
      }
    },

    async fetchThreadMessages(
      threadKey: string,
      beforeMessage?: MessageRef,
    ): Promise<ThreadMessage[]> {
      const addr = slackAddress(threadKey);
      if (addr.threadTs === '') return [];
      const beforeTs = beforeMessage === undefined ? undefined : parseMessageId(beforeMessage).ts;
      // The thread's root has nothing before it in its thread.
      if (beforeTs === addr.threadTs) return [];
      const client = await clientFor(addr.team);
      const page = history.pageOf(addr.team);
      try {
        return await fetchThreadMessages(
          client,
          {
            channel: addr.channel,
            threadTs: addr.threadTs,
            ...(beforeTs === undefined ? {} : { beforeTs }),
          },
          { ...bounds, maxPages: page.maxPages, pageSize: page.limit },
          () => history.rateLimited(addr.team, 'conversations.replies'),
        );
      } catch (err) {
        const failure = toDeliveryError(err, 'conversations.replies');
        if (failure.code !== 'rate_limited') throw failure;
        // Slack's limit on history reads: the run starts without its thread's context.
        history.rateLimited(addr.team, 'conversations.replies');
        return [];
      }
    },
  };
  const mirrored = mirroringSessions(notifier, sessions);
  return deps.onRunShown ? tellingRunsShown(mirrored, deps.onRunShown, log) : mirrored;
}

/** After a run's status message or outcome reached its thread, its agent session follows. */
function mirroringSessions(
  inner: SlackNotifier,
  sessions: ReturnType<typeof createAgentSessions>,
): SlackNotifier {
  return {
    ...inner,
    async post(to, model, options) {
      const result = await inner.post(to, model, options);
      if (to.privateTo === undefined) sessions.mirror(result.newThreadKey ?? to.threadKey, model);
      return result;
    },
    async update(ref, model) {
      await inner.update(ref, model);
      sessions.mirror(ref.threadKey, model);
    },
  };
}

/** Tell `hook` after a run's status or outcome was posted or edited; a failing hook is logged. */
function tellingRunsShown(
  inner: SlackNotifier,
  hook: (threadKey: string, requesterId: string | undefined) => void,
  log: Logger,
): SlackNotifier {
  const shown = (threadKey: string, model: MessageModel) => {
    if (model.type !== 'run_status' && model.type !== 'run_outcome') return;
    try {
      hook(threadKey, model.run.requester?.id);
    } catch (err) {
      log.warn({ err }, 'run-shown hook failed');
    }
  };
  return {
    ...inner,
    async post(to, model, options) {
      const result = await inner.post(to, model, options);
      shown(result.newThreadKey ?? to.threadKey, model);
      return result;
    },
    async update(ref, model) {
      await inner.update(ref, model);
      shown(ref.threadKey, model);
    },
  };
}
