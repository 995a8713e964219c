/**
 * The Linear notifier (Notifier port): every message becomes an agent activity in the
 * session the thread names (render-activity.ts says which kind). Activities are append-only,
 * so an "edit" of the status message is a new (ephemeral) progress thought, and the status
 * edit that carries the run's session link also points the Linear session at it. When the run
 * is live and its issue was delegated to the app, the issue moves to its team's first started
 * state (never further). Reactions have no Linear counterpart and are skipped.
 *
 * A working run's session that has been quiet for a while gets a short thought, so Linear
 * does not mark it stale (it does after 30 minutes without activity): the runs' session keeper
 * decides and queues it (runs/tracker/session-keeper.ts), and `keepAlive` only writes it.
 *
 * Any replica may deliver any message of a session, so what it records of its deliveries lives
 * in `sessions` (the store's, shared by the replicas): when the relay last wrote there (the
 * keeper's quiet period starts from it) and that a queued keep-alive was written. Whether the
 * BLOCKED outcome that follows a Stop is written is the runs' decision (runs/session-work.ts):
 * what is queued is written. What only avoids repeating a harmless call (the external link, the
 * issue's move to its started state) and what shapes the look of one replica's writes (the
 * last progress thought, the step actions' pace) stays in this process.
 */
import type { MessageModel } from '../../core/message/message-model.js';
import {
  createMemoryLinearSessions,
  systemClock,
  type Clock,
  type Destination,
  type LinearSessions,
  type Logger,
  type Notifier,
  type PostOptions,
  type PostResult,
} from '../../core/ports/index.js';
import { DeliveryError } from '../../core/ports/index.js';
import { decodeThreadKey } from '../../core/thread-key.js';
import type { MessageRef } from '../../core/trigger.js';
import type { Activity } from '../api/activity-content.js';
import { activityIdFor } from '../api/activity-id.js';
import {
  createLinearGraphql,
  LinearTokenRejected,
  preloadLinearSdk,
  type LinearGraphql,
} from '../api/graphql-client.js';
import {
  activityExists,
  isWorkspaceAdmin,
  createActivity,
  setSessionLink,
  startDelegatedIssue,
} from '../api/requests.js';
import { progress, renderActivity } from '../render/render-activity.js';
import { createStepActions } from './step-actions.js';

/** How long a working session may stay quiet before a keep-alive: well before Linear's 30 minutes. */
export const DEFAULT_KEEP_ALIVE_MS = 20 * 60_000;
const KEEP_ALIVE_THOUGHT = 'Still working on it…';

export interface LinearNotifierDeps {
  apiUrl: string;
  /** The one workspace's token; with OAuth, for workspaces that have no installation. */
  token?: string;
  /** OAuth install: the token of a workspace (organization id), when installed there. */
  tokenFor?: (organizationId: string) => Promise<string | undefined>;
  /**
   * OAuth install: Linear refused `rejected` (expired); a newer token of the workspace, and
   * the call is made once more with it.
   */
  renewToken?: (organizationId: string, rejected: string) => Promise<string | undefined>;
  logger: Logger;
  clock?: Clock;
  /** `action` activities per session per minute from the run's steps (0: none). */
  actionsPerMinute?: number;
  /**
   * What is remembered of each session for every replica (the store's); in this process only
   * when absent.
   */
  sessions?: LinearSessions;
}

export interface LinearNotifier extends Notifier {
  /** Write the "still working" thought the session keeper queued. */
  keepAlive(threadKey: string, options?: PostOptions): Promise<void>;
  /** One activity outside the outbox (the ingress's refusals). */
  tell(organizationId: string, sessionId: string, activity: Activity): Promise<void>;
  /** Whether a person is an admin of the workspace; false when it cannot be told. */
  isAdmin(organizationId: string, userId: string): Promise<boolean>;
}

interface Place {
  threadKey: string;
  session: string;
  gql: LinearGraphql;
}

export function createLinearNotifier(deps: LinearNotifierDeps): LinearNotifier {
  const clock = deps.clock ?? systemClock;
  const log = deps.logger.child({ component: 'linear-notifier' });
  preloadLinearSdk();
  const clients = new Map<string, LinearGraphql>();
  const clientWith = (token: string) => {
    let client = clients.get(token);
    if (!client) {
      // Refreshed tokens replace one another: the clients of spent ones are let go.
      if (clients.size >= 64) clients.clear();
      client = createLinearGraphql({ apiUrl: deps.apiUrl, token });
      clients.set(token, client);
    }
    return client;
  };
  async function clientFor(organizationId: string): Promise<LinearGraphql> {
    const token = (await deps.tokenFor?.(organizationId)) ?? deps.token;
    if (token === undefined)
      throw new DeliveryError(
        'forbidden',
        'the Linear app is not installed in this workspace',
        false,
      );
    const gql = clientWith(token);
    const renewToken = deps.renewToken;
    if (!renewToken) return gql;
    // A token Linear refused (expired before we refreshed it): once more with a new one.
    return async <T>(query: string, variables: Record<string, unknown>): Promise<T> => {
      try {
        return await gql<T>(query, variables);
      } catch (err) {
        if (!(err instanceof LinearTokenRejected)) throw err;
        const fresh = await renewToken(organizationId, token);
        if (fresh === undefined) throw err;
        return clientWith(fresh)<T>(query, variables);
      }
    };
  }
  async function placeOf(threadKey: string): Promise<Place> {
    const address = decodeThreadKey(threadKey);
    if (address?.platform !== 'linear')
      throw new DeliveryError('invalid', 'not a Linear thread', false);
    return {
      threadKey,
      session: address.session,
      gql: await clientFor(address.organization),
    };
  }
  const sessions = deps.sessions ?? createMemoryLinearSessions();
  const linked = new Map<string, string>();
  const started = new Set<string>();
  /** The last progress thought per session: the same words twice in a row say nothing new. */
  const shownProgress = new Map<string, string>();
  const steps = createStepActions(deps.actionsPerMinute);

  /** The run's finished steps as `action` activities (best effort: a status edit never fails on them). */
  async function writeSteps(place: Place, message: MessageModel): Promise<void> {
    if (message.type !== 'run_status') return;
    const { session } = place;
    for (const step of steps.due(session, message.run, clock.now())) {
      try {
        await write(place, step.activity, step.id);
      } catch (err) {
        log.debug({ session, err: (err as Error).message }, 'action activity not written');
      }
    }
  }

  async function write(place: Place, activity: Activity, id?: string): Promise<string> {
    const written = await createActivity(place.gql, place.session, activity, id);
    try {
      await sessions.written(place.threadKey, clock.now());
    } catch (err) {
      // The activity is in Linear; at worst a keep-alive comes a little early.
      log.warn({ session: place.session, err: (err as Error).message }, 'last write not kept');
    }
    return written;
  }

  async function onStatus(place: Place, message: MessageModel): Promise<void> {
    if (message.type !== 'run_status') return;
    const { session, gql } = place;
    const { run } = message;
    if (run.sessionLink && linked.get(session) !== run.sessionLink) {
      await setSessionLink(gql, session, run.sessionLink);
      linked.set(session, run.sessionLink);
    }
    if (run.state.name !== 'STARTING' && run.state.live && !started.has(session)) {
      const moved = await startDelegatedIssue(gql, session);
      started.add(session);
      if (moved) log.info({ session }, 'delegated issue moved to its first started state');
    }
    // What is remembered of a session goes when its run ends, so memory follows live runs.
    if (run.state.ended) {
      linked.delete(session);
      started.delete(session);
      steps.forget(session);
    }
  }

  const notifier: LinearNotifier = {
    platform: 'linear',
    async post(to: Destination, message: MessageModel, options?: PostOptions): Promise<PostResult> {
      const place = await placeOf(to.threadKey);
      const { session, gql } = place;
      const activity = renderActivity(message);
      const id = options?.key ? activityIdFor(options.key) : undefined;
      if (message.type === 'run_status') await onStatus(place, message);
      if (activity === undefined)
        return { ref: { threadKey: to.threadKey, id: `session:${session}` } };
      if (id && options?.mayExist && (await activityExists(gql, id))) {
        return { ref: { threadKey: to.threadKey, id: `activity:${id}` } };
      }
      const written = await write(place, activity, id);
      await writeSteps(place, message);
      return { ref: { threadKey: to.threadKey, id: `activity:${written}` } };
    },
    async update(ref: MessageRef, message: MessageModel): Promise<void> {
      const place = await placeOf(ref.threadKey);
      if (message.type === 'run_status') {
        await onStatus(place, message);
        const shown = progress(message.run);
        const words = shown?.content.type === 'thought' ? shown.content.body : undefined;
        if (shown && words !== shownProgress.get(place.session)) {
          await write(place, shown);
          if (words !== undefined) shownProgress.set(place.session, words);
        }
        if (!message.run.state.live) shownProgress.delete(place.session);
        await writeSteps(place, message);
        return;
      }
      const activity = renderActivity(message);
      if (activity) await write(place, activity);
    },
    async react(): Promise<void> {
      // Linear shows the session's state itself; there is nothing to react on.
    },
    async keepAlive(threadKey, options) {
      const place = await placeOf(threadKey);
      const id = options?.key ? activityIdFor(options.key) : undefined;
      const landed =
        id !== undefined &&
        options?.mayExist !== undefined &&
        (await activityExists(place.gql, id));
      if (!landed)
        await write(place, { content: { type: 'thought', body: KEEP_ALIVE_THOUGHT } }, id);
      // The next keep-alive of the session is no longer held back by this one.
      await sessions.keepAliveDone(threadKey);
    },
    async tell(organizationId, sessionId, activity) {
      await createActivity(await clientFor(organizationId), sessionId, activity);
    },
    async isAdmin(organizationId, userId) {
      try {
        return await isWorkspaceAdmin(await clientFor(organizationId), userId);
      } catch (err) {
        // Closed when in doubt: not knowing is not being an admin.
        log.warn({ err, organizationId }, 'could not tell whether a Linear user is an admin');
        return false;
      }
    },
  };
  return notifier;
}
