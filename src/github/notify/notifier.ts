/**
 * The GitHub notifier (Notifier port): posts, edits and reacts through Octokit. Issue and PR
 * conversations get issue comments; review-comment threads get replies to the thread's root
 * review comment. Failures become `DeliveryError`s for the outbox (see delivery-error.ts).
 */
import type { MessageModel, ReactionName } from '../../core/message/message-model.js';
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
  type ReactOptions,
  type ReactionIds,
  createMemoryReactionIds,
} from '../../core/ports/index.js';
import { DEFAULT_BOT_HANDLE } from '../../core/command/parse-command.js';
import { decodeThreadKey } from '../../core/thread-key.js';
import type { MessageRef } from '../../core/trigger.js';
import { toDeliveryError } from './delivery-error.js';
import { createCheckRuns } from './check-runs.js';
import { createGitHubClients, type GitHubAuth, type GitHubClients } from '../api/github-client.js';
import {
  addReaction,
  createComment,
  deleteReaction,
  editComment,
  getPullRequestRefs,
  listRecentComments,
  removeReactions,
  type Target,
} from './github-requests.js';
import { decodeMessageId, encodeMessageId, type GitHubMessageId } from '../api/message-ref.js';
import { GITHUB_REACTION, type GitHubReaction } from './reactions.js';
import {
  renderGitHubMarkdown,
  renderGitHubMessage,
  type RenderOptions,
} from '../render/render-markdown.js';
import { GITHUB_COMMENT_LIMIT, splitComment } from '../render/split-comment.js';

export interface GitHubNotifierDeps {
  auth: GitHubAuth;
  apiUrl?: string;
  logger: Logger;
  clock?: Clock;
  /** Resolve a repository's App installation; default asks GitHub with the App's JWT. */
  installationIdFor?: (owner: string, repo: string) => Promise<number>;
  /** The command word and bot handle shown in rendered comments. */
  render?: Omit<RenderOptions, 'limit'>;
  /** Per-request timeout. Default 15 s. */
  requestTimeoutMs?: number;
  /** Quick 5xx retries inside Octokit (default 1) and their base delay (default 500 ms). */
  retries?: number;
  retryBaseMs?: number;
  /** Spacing of write requests; default 1 s. Tests pass 0. */
  minWriteIntervalMs?: number;
  /**
   * Whose reactions are ours, for reactions added before their ids were recorded (taken off
   * by listing); default `<botHandle>[bot]`.
   */
  botLogin?: string;
  /**
   * Where the id of each reaction the relay adds is kept, so a superseded one is deleted by
   * that id whatever identity the auth posts as. Default: this process's memory.
   */
  reactionIds?: ReactionIds;
}

export interface PullRequestRefs {
  headRef: string;
  baseRef: string;
}

export interface GitHubNotifier extends Notifier {
  readonly platform: 'github';
  /** Seed the installation cache from a webhook's `installation.id` (App auth). */
  learnInstallation(owner: string, repo: string, installationId: number): void;
  /** A pull request's head and base branches; `undefined` when GitHub does not say. */
  lookupPullRequest(q: {
    owner: string;
    repo: string;
    number: number;
  }): Promise<PullRequestRefs | undefined>;
  /** The underlying clients (tests read the token cache). */
  readonly clients: GitHubClients;
}

/**
 * The hidden mark a posted part carries (see PostOptions): invisible in the rendered comment,
 * and never produced from user text, whose HTML the renderer neutralises.
 */
export function notificationMarker(key: string, part: number): string {
  return `<!-- agent-relay:notification ${key}/${part} -->`;
}
/** Room kept in each part for the mark. */
const MARKER_ROOM = 80;

function githubAddress(threadKey: string) {
  const addr = decodeThreadKey(threadKey);
  if (addr?.platform !== 'github') {
    throw new DeliveryError('invalid', `not a GitHub thread key: ${threadKey}`, false);
  }
  return addr;
}

export function createGitHubNotifier(deps: GitHubNotifierDeps): GitHubNotifier {
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger.child({ component: 'github-notifier' });
  const clients = createGitHubClients({
    auth: deps.auth,
    apiUrl: deps.apiUrl,
    logger: deps.logger,
    clock,
    installationIdFor: deps.installationIdFor,
    retries: deps.retries,
    retryBaseMs: deps.retryBaseMs,
    minWriteIntervalMs: deps.minWriteIntervalMs,
  });
  const timeoutMs = deps.requestTimeoutMs ?? 15_000;
  const shown = createShownMemo();
  const botLogin = deps.botLogin ?? `${deps.render?.botHandle ?? DEFAULT_BOT_HANDLE}[bot]`;
  const reactionIds = deps.reactionIds ?? createMemoryReactionIds();
  const checkRuns = createCheckRuns({
    auth: deps.auth,
    clients,
    logger: deps.logger,
    clock,
    timeoutMs,
    botHandle: deps.render?.botHandle,
  });

  /** Run one GitHub call for a thread, turning failures into DeliveryErrors. */
  async function call<T>(
    threadKey: string,
    what: string,
    fn: (t: Target) => Promise<T>,
  ): Promise<T> {
    const { owner, repo } = githubAddress(threadKey);
    try {
      const octokit = await clients.forRepo(owner, repo);
      return await fn({ octokit, owner, repo, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      const failure = toDeliveryError(err, what, clock.now());
      if (failure.code === 'not_found' || failure.code === 'forbidden') {
        clients.forgetRepo(owner, repo);
        logger.warn(
          { threadKey, code: failure.code, what },
          'GitHub refused the notification; it will be parked',
        );
      }
      throw failure;
    }
  }

  /**
   * Take these reactions of ours off a message: each by the id GitHub gave when the relay
   * added it; one with no recorded id (added before ids were recorded) by listing the bot's.
   */
  async function takeOff(
    target: MessageRef,
    id: GitHubMessageId,
    contents: readonly GitHubReaction[],
  ): Promise<void> {
    const on = { threadKey: target.threadKey, messageId: target.id };
    const recorded = await reactionIds.find(on, contents);
    for (const r of recorded) {
      await call(target.threadKey, 'remove reaction', (t) =>
        deleteReaction(t, id, Number(r.reactionId)),
      );
      await reactionIds.removed(on, r.content);
    }
    const unrecorded = [...new Set(contents)].filter((c) => !recorded.some((r) => r.content === c));
    if (unrecorded.length > 0) {
      await call(target.threadKey, 'remove reactions', (t) =>
        removeReactions(t, id, unrecorded, botLogin),
      );
    }
  }

  async function lookupPullRequest(q: {
    owner: string;
    repo: string;
    number: number;
  }): Promise<PullRequestRefs | undefined> {
    const { owner, repo, number } = q;
    try {
      const octokit = await clients.forRepo(owner, repo);
      const signal = AbortSignal.timeout(timeoutMs);
      return await getPullRequestRefs({ octokit, owner, repo, signal }, number);
    } catch (err) {
      logger.debug({ owner, repo, number, err: String(err) }, 'pull request lookup failed');
      return undefined;
    }
  }

  return {
    platform: 'github',
    clients,

    async post(to: Destination, message: MessageModel, options?: PostOptions): Promise<PostResult> {
      const addr = githubAddress(to.threadKey);
      const key = options?.key;
      const parts =
        key === undefined
          ? renderGitHubMessage(message, deps.render)
          : renderGitHubMessage(message, {
              ...deps.render,
              limit: GITHUB_COMMENT_LIMIT - MARKER_ROOM,
            }).map((body, i) => `${body}\n\n${notificationMarker(key, i)}`);
      // Parts an earlier attempt already posted (it may have stopped half-way).
      const earlier = new Map<number, MessageRef>();
      if (key !== undefined && options?.mayExist !== undefined) {
        const since = Math.max(0, options.mayExist.since);
        const comments = await call(to.threadKey, 'list comments', (t) =>
          listRecentComments(t, addr, since),
        );
        parts.forEach((_, i) => {
          const mark = notificationMarker(key, i);
          const c = comments.find((comment) => comment.body?.includes(mark));
          if (c === undefined) return;
          const id =
            addr.reviewCommentId === undefined
              ? ({ kind: 'issue', commentId: c.id } as const)
              : ({ kind: 'review', commentId: c.id } as const);
          earlier.set(i, { threadKey: to.threadKey, id: encodeMessageId(id), url: c.html_url });
        });
        if (earlier.size > 0) {
          logger.info(
            { threadKey: to.threadKey, key, parts: parts.length, found: earlier.size },
            'notification was already posted; not again',
          );
        }
      }
      let first: MessageRef | undefined;
      for (const [i, body] of parts.entries()) {
        const done = earlier.get(i);
        if (done !== undefined) {
          first ??= done;
          continue;
        }
        const made = await call(to.threadKey, 'post comment', (t) => createComment(t, addr, body));
        first ??= { threadKey: to.threadKey, id: encodeMessageId(made.id), url: made.url };
      }
      if (first === undefined) throw new DeliveryError('invalid', 'nothing to post', false);
      shown.remember(first.id, renderGitHubMarkdown(message, deps.render));
      if (message.type === 'run_status') {
        // The comment is out: a check run that could not be written now is by the next edit.
        await checkRuns.sync(to.threadKey, message.run, first.url).catch((err: unknown) => {
          logger.warn({ threadKey: to.threadKey, err: String(err) }, 'check run deferred');
        });
      }
      return { ref: first };
    },

    async update(ref: MessageRef, message: MessageModel): Promise<void> {
      const id = decodeMessageId(ref.id);
      if (id === undefined || id.kind === 'issue-body') {
        throw new DeliveryError('invalid', `cannot edit GitHub message ${ref.id}`, false);
      }
      const rendered = renderGitHubMarkdown(message, deps.render);
      // An edit to what the comment already says would change nothing: no request.
      if (!shown.says(ref.id, rendered)) {
        // An edited comment stays one comment: cut, with a note, rather than spill over.
        const [body = ''] = splitComment(rendered, {
          limit: GITHUB_COMMENT_LIMIT,
          continuedNote: '<sub>(truncated)</sub>',
        });
        await call(ref.threadKey, 'edit comment', (t) => editComment(t, id, body));
        shown.remember(ref.id, rendered);
      }
      // After the comment (remembered, so a retry of this update edits it no more).
      if (message.type === 'run_status') await checkRuns.sync(ref.threadKey, message.run, ref.url);
    },

    async unreact(target: MessageRef, reactions: readonly ReactionName[]): Promise<void> {
      const id = decodeMessageId(target.id);
      if (id === undefined)
        throw new DeliveryError('invalid', `cannot react to ${target.id}`, false);
      await takeOff(
        target,
        id,
        reactions.map((r) => GITHUB_REACTION[r]),
      );
    },

    async react(target: MessageRef, reaction: ReactionName, options?: ReactOptions): Promise<void> {
      const id = decodeMessageId(target.id);
      if (id === undefined)
        throw new DeliveryError('invalid', `cannot react to ${target.id}`, false);
      const keep = GITHUB_REACTION[reaction];
      // GitHub's set is small (seen and blocked are both 👀): never remove what stays.
      const superseded = (options?.replaces ?? [])
        .map((r) => GITHUB_REACTION[r])
        .filter((c) => c !== keep);
      if (superseded.length > 0) await takeOff(target, id, superseded);
      const { reactionId } = await call(target.threadKey, 'add reaction', (t) =>
        addReaction(t, id, keep),
      );
      await reactionIds.added(
        { threadKey: target.threadKey, messageId: target.id },
        keep,
        String(reactionId),
        clock.now(),
      );
    },

    learnInstallation: (owner, repo, installationId) =>
      clients.learnInstallation(owner, repo, installationId),

    lookupPullRequest,

    async fetchPullRequestRefs(threadKey) {
      const addr = decodeThreadKey(threadKey);
      if (addr?.platform !== 'github') return undefined;
      return lookupPullRequest({ owner: addr.owner, repo: addr.repo, number: addr.number });
    },
  };
}
