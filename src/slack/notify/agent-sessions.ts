/**
 * Slack agent sessions: a run's thread shows the run as a session with a title, the person
 * who started it, a live status and Slack's own Stop control (`agents.sessions.setStatus`,
 * `agents.sessions.rename`). The status follows the run (session-status.ts): mirrored after
 * each status message or outcome reaches the thread, and set at once by Stop. A workspace or
 * app without sessions (an older install, a plan without them) answers `not_authorized`,
 * `unknown_method` or similar: that is logged once per workspace and sessions are left alone
 * there, so everything else goes on as before.
 */
import type { MessageModel } from '../../core/message/message-model.js';
import { sessionStatusOf } from '../../core/message/session-status.js';
import type { Logger, SessionStatus } from '../../core/ports/index.js';
import { slackErrorName, toDeliveryError } from '../api/delivery-errors.js';
import { slackAddress } from '../api/slack-address.js';
import type { WebClient } from '../api/web-client.js';

/** Slack's answers meaning "no sessions here" (not a failure to retry). */
const UNSUPPORTED = new Set([
  'not_authorized',
  'unknown_method',
  'missing_scope',
  'not_allowed_token_type',
  'feature_not_enabled',
  'method_deprecated',
]);

/** Titles are at most 200 characters. */
const MAX_TITLE = 200;

/** Threads whose last mirrored status and title are remembered (oldest forgotten first). */
const REMEMBERED_THREADS = 10_000;

export interface AgentSessions {
  /** Set the status now (Stop, or putting it back); delivery errors are thrown for a retry. */
  set(threadKey: string, status: SessionStatus): Promise<void>;
  /**
   * After a run's status message or outcome reached its thread: the session follows, in the
   * background (it never holds up the next notification), in order per thread.
   */
  mirror(threadKey: string, model: MessageModel): void;
}

export function createAgentSessions(deps: {
  clientFor(team: string): Promise<WebClient>;
  logger: Logger;
}): AgentSessions {
  const log = deps.logger.child({ component: 'slack-agent-sessions' });
  const unsupported = new Set<string>();
  const shown = new Map<string, { status: SessionStatus; title: string }>();
  /** Per thread, the last session call queued: calls of one thread never overtake. */
  const chains = new Map<string, Promise<void>>();

  function inOrder(threadKey: string, work: () => Promise<void>): Promise<void> {
    const next = (chains.get(threadKey) ?? Promise.resolve()).then(work);
    const quiet = next.catch(() => undefined);
    chains.set(threadKey, quiet);
    void quiet.then(() => {
      if (chains.get(threadKey) === quiet) chains.delete(threadKey);
    });
    return next;
  }

  function remember(threadKey: string, value: { status: SessionStatus; title: string }): void {
    shown.delete(threadKey);
    shown.set(threadKey, value);
    if (shown.size > REMEMBERED_THREADS) {
      const oldest = shown.keys().next().value;
      if (oldest !== undefined) shown.delete(oldest);
    }
  }

  /** false when sessions are not available in this workspace (told once). */
  function supported(team: string, err: unknown): boolean {
    const name = slackErrorName(err);
    if (name === undefined || !UNSUPPORTED.has(name)) return true;
    if (!unsupported.has(team)) {
      unsupported.add(team);
      log.info(
        { team, slackError: name },
        'Slack agent sessions are not available in this workspace; runs are shown without them',
      );
    }
    return false;
  }

  /** Slack's answer, or undefined when sessions are not available there. */
  async function call(
    threadKey: string,
    send: (
      client: WebClient,
      place: { channel_id: string; thread_ts: string },
    ) => Promise<{ title?: unknown }>,
    method: string,
  ): Promise<{ title?: unknown } | undefined> {
    const addr = slackAddress(threadKey);
    if (addr.threadTs === '' || unsupported.has(addr.team)) return undefined;
    const client = await deps.clientFor(addr.team);
    try {
      return await send(client, { channel_id: addr.channel, thread_ts: addr.threadTs });
    } catch (err) {
      if (!supported(addr.team, err)) return undefined;
      throw toDeliveryError(err, method);
    }
  }

  return {
    set: (threadKey, status) =>
      inOrder(threadKey, async () => {
        const done = await call(
          threadKey,
          (client, place) => client.agents.sessions.setStatus({ ...place, status }),
          'agents.sessions.setStatus',
        );
        const before = shown.get(threadKey);
        if (done !== undefined && before) remember(threadKey, { ...before, status });
      }),

    mirror(threadKey, model) {
      if (model.type !== 'run_status' && model.type !== 'run_outcome') return;
      void inOrder(threadKey, () => follow(threadKey, model));
    },
  };

  async function follow(
    threadKey: string,
    model: Extract<MessageModel, { type: 'run_status' | 'run_outcome' }>,
  ): Promise<void> {
    const { run } = model;
    const status = sessionStatusOf(run.state);
    const title = run.title.slice(0, MAX_TITLE);
    const before = shown.get(threadKey);
    if (before?.status === status && before.title === title) return;
    try {
      const set = await call(
        threadKey,
        (client, place) =>
          client.agents.sessions.setStatus({
            ...place,
            status,
            // Used by Slack only when this call creates the session.
            title,
            ...(run.requester?.platform === 'slack' ? { initiator_user_id: run.requester.id } : {}),
          }),
        'agents.sessions.setStatus',
      );
      if (set === undefined) return;
      // A session Slack made before (the person opened the thread in the agent pane) keeps
      // its own title unless renamed. Slack answers with the session's title: when that is
      // ours (this call made the session, or it was renamed before), no rename is needed.
      const current = typeof set.title === 'string' ? set.title : before?.title;
      if (current !== title) {
        await call(
          threadKey,
          (client, place) => client.agents.sessions.rename({ ...place, title }),
          'agents.sessions.rename',
        );
      }
      remember(threadKey, { status, title });
    } catch (err) {
      // The status message reached the thread; the session is a mirror of it, best effort.
      log.warn({ err, threadKey }, 'Slack agent session not updated');
    }
  }
}
