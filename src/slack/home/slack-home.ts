/**
 * App Home: published when a person opens the tab, and again when one of their runs changes
 * state (at most once per `minRefreshMs` per person, and only for people who opened it
 * lately, well inside Slack's views.publish limits). The tab lists runs from the store, with
 * the service's detail for the viewer's own; the runs of others only from channels the viewer
 * is in (users.conversations with the workspace's bot token, so a private channel the viewer
 * is not in never shows).
 */
import type { SlackRoutes } from '../api/routes.js';
import { z } from 'zod';
import type { Catalogue, Clock, Logger, TriggerSink } from '../../core/ports/index.js';
import { catalogueChoices } from '../api/catalogue-choices.js';
import { decodeThreadKey, settingsScopeOf } from '../../core/thread-key.js';
import type { Trigger } from '../../core/trigger.js';
import type { BotTokenSource } from '../api/bot-tokens.js';
import { slackErrorName } from '../api/delivery-errors.js';
import { createWorkspaceClients } from '../api/workspace-clients.js';
import { openDefaultsModal, registerDefaultsModal } from './defaults-modal.js';
import { loadHomeModel, RECENT } from './home-model.js';
import { greetAgentView } from '../api/agent-view-greeting.js';
import type { HomeSource } from './home-source.js';
import {
  buildHomeView,
  HOME_CANCEL_ACTION_ID,
  HOME_EDIT_DEFAULTS_ACTION_ID,
  HOME_TOGGLE_CHANNELS_ACTION_ID,
} from './home-view.js';

export interface SlackHomeDeps {
  source: HomeSource;
  tokens: BotTokenSource;
  apiUrl?: string;
  logger: Logger;
  clock: Clock;
  /** The service's environments and models, offered in the defaults form. */
  catalogue?: Catalogue;
  /** Fewest ms between two refreshes of one person's tab (default 5 s). */
  minRefreshMs?: number;
  /** How long after opening the tab a person's changes refresh it (default 24 h). */
  watchMs?: number;
}

/**
 * Whether a person may use the bot (the ingress's allowlists and people rules); without a
 * channel, App Home's own question. A refusal carries the words to show.
 */
export type HomeAdmit = (where: {
  team: string;
  enterprise?: string | undefined;
  channel?: string;
  user: string;
  userTeam?: string | undefined;
}) => Promise<{ ok: true; admin: boolean; relayAdmin?: boolean } | { ok: false; refusal: string }>;

export interface SlackHome {
  publish(teamId: string, userId: string): Promise<void>;
  /** A run's status changed (the notifier tells): refresh its requester's tab, if watched. */
  runChanged(threadKey: string, requesterId: string | undefined): void;
  /** `admit`: the allowlists and people rules, as for every other surface. */
  register(routes: SlackRoutes, deps: { sink: TriggerSink; admit: HomeAdmit }): void;
  stop(): Promise<void>;
}

const HomeOpened = z.object({
  type: z.literal('app_home_opened'),
  user: z.string(),
  tab: z.string().optional(),
  /** The person's conversation with the app (its Messages tab). */
  channel: z.string().optional(),
});
const Clicker = z.object({
  user: z.object({
    id: z.string(),
    team_id: z.string().optional(),
    username: z.string().optional(),
  }),
  team: z.object({ id: z.string() }).nullish(),
  trigger_id: z.string().optional(),
  actions: z
    .array(z.object({ value: z.string().optional(), action_ts: z.string().optional() }))
    .min(1),
});

/** People whose tab openings are remembered between two reads of the source, at most. */
const MAX_REMEMBERED = 10_000;

export function createSlackHome(deps: SlackHomeDeps): SlackHome {
  const log = deps.logger.child({ component: 'slack-home' });
  const minRefreshMs = deps.minRefreshMs ?? 5_000;
  const watchMs = deps.watchMs ?? 24 * 3_600_000;
  const clientFor = createWorkspaceClients(deps.tokens, {
    // Read when a workspace's client is first made, as `deps` says it then.
    get apiUrl() {
      return deps.apiUrl;
    },
    logger: deps.logger,
  });
  /** `team:user` -> when the tab was last opened (when the source keeps no record of it). */
  const watched = new Map<string, number>();
  /**
   * The source's answer per person, asked again once `minRefreshMs` has passed: every status
   * edit of a run asks, and a tab opened through another replica is at most that late to be
   * noticed here (this replica's own openings are in `watched` at once).
   */
  const stored = new Map<string, { at: number | undefined; readAt: number }>();
  const openedAt = async (team: string, user: string): Promise<number | undefined> => {
    const key = `${team}:${user}`;
    const local = watched.get(key);
    if (!deps.source.homeOpenedAt) return local;
    const now = deps.clock.now();
    let read = stored.get(key);
    if (read === undefined || now - read.readAt >= minRefreshMs) {
      read = { at: await deps.source.homeOpenedAt(team, user), readAt: now };
      if (stored.size >= MAX_REMEMBERED) stored.clear();
      stored.set(key, read);
    }
    return read.at === undefined || (local !== undefined && local > read.at) ? local : read.at;
  };
  const showChannels = new Set<string>();
  const lastPublish = new Map<string, number>();
  const timers = new Map<string, NodeJS.Timeout>();
  const pending = new Set<Promise<unknown>>();

  async function publish(team: string, user: string): Promise<void> {
    const key = `${team}:${user}`;
    lastPublish.set(key, deps.clock.now());
    const client = await clientFor(team);
    const model = await loadHomeModel(deps, client, team, user);
    const view = buildHomeView({ ...model, showChannels: showChannels.has(key) });
    await client.views.publish({ user_id: user, view });
  }

  function track<T>(p: Promise<T>): void {
    const q = p
      .catch((err: unknown) =>
        log.warn({ err, slackError: slackErrorName(err) }, 'App Home not published'),
      )
      .finally(() => pending.delete(q));
    pending.add(q);
  }

  function runChanged(threadKey: string, requesterId: string | undefined): void {
    const addr = decodeThreadKey(threadKey);
    if (addr?.platform !== 'slack' || requesterId === undefined) return;
    const key = `${addr.team}:${requesterId}`;
    if (timers.has(key)) return;
    track(
      openedAt(addr.team, requesterId).then((opened) =>
        schedule(key, addr.team, requesterId, opened),
      ),
    );
  }

  function schedule(key: string, team: string, user: string, opened: number | undefined): void {
    const now = deps.clock.now();
    if (opened === undefined || now - opened > watchMs || timers.has(key)) return;
    const wait = Math.max(0, (lastPublish.get(key) ?? 0) + minRefreshMs - now);
    const timer = setTimeout(() => {
      timers.delete(key);
      track(publish(team, user));
    }, wait);
    timer.unref();
    timers.set(key, timer);
  }

  function register(routes: SlackRoutes, reg: { sink: TriggerSink; admit: HomeAdmit }): void {
    /** Whether this person may use the bot at all (no channel: App Home is none). */
    const admit = (
      team: string,
      enterprise: string | undefined,
      user: { id: string; team_id?: string | undefined },
    ) => reg.admit({ team, enterprise, user: user.id, userTeam: user.team_id });

    routes.event('app_home_opened', async ({ event, context }) => {
      const opened = HomeOpened.safeParse(event);
      const team = context.teamId;
      if (!opened.success || team === undefined) return;
      const tab = opened.data.tab ?? 'home';
      const channel = opened.data.channel;
      if (tab === 'messages' && channel !== undefined) {
        // The agent view's pane opened: its greeting, for people who may use the bot.
        const verdict = await admit(team, context.enterpriseId, { id: opened.data.user });
        if (verdict.ok) track(clientFor(team).then((client) => greetAgentView(client, channel)));
        return;
      }
      if (tab !== 'home') return;
      const verdict = await admit(team, context.enterpriseId, { id: opened.data.user });
      if (!verdict.ok) {
        // Someone who may not use the bot sees why, and none of the runs.
        const view = {
          type: 'home' as const,
          blocks: [
            {
              type: 'section',
              text: { type: 'mrkdwn', text: verdict.refusal },
            },
          ],
        };
        const client = await clientFor(team);
        track(client.views.publish({ user_id: opened.data.user, view }));
        return;
      }
      const now = deps.clock.now();
      watched.set(`${team}:${opened.data.user}`, now);
      track(
        Promise.all([
          deps.source.homeOpened?.(team, opened.data.user, now),
          publish(team, opened.data.user),
        ]),
      );
    });

    routes.action(HOME_TOGGLE_CHANNELS_ACTION_ID, async ({ ack, body, context }) => {
      await ack();
      const click = Clicker.safeParse(body);
      const team = context.teamId;
      if (!click.success || team === undefined) return;
      if (!(await admit(team, context.enterpriseId, click.data.user)).ok) return;
      const key = `${team}:${click.data.user.id}`;
      if (click.data.actions[0]?.value === 'show') showChannels.add(key);
      else showChannels.delete(key);
      track(publish(team, click.data.user.id));
    });

    routes.action(HOME_CANCEL_ACTION_ID, async ({ ack, body, context }) => {
      const click = Clicker.safeParse(body);
      const team = context.teamId;
      const runId = click.data?.actions[0]?.value;
      if (!click.success || team === undefined || runId === undefined) return ack();
      const record = (await deps.source.recentRuns(team, RECENT)).find((r) => r.runId === runId);
      const addr = record ? decodeThreadKey(record.threadKey) : undefined;
      if (record === undefined || addr?.platform !== 'slack') {
        log.info({ runId }, 'App Home Cancel for a run not in this workspace; ignored');
        return ack();
      }
      const { user } = click.data;
      const verdict = await reg.admit({
        team,
        enterprise: context.enterpriseId,
        channel: addr.channel,
        user: user.id,
        userTeam: user.team_id,
      });
      if (!verdict.ok) {
        log.info({ runId }, 'App Home Cancel refused');
        return ack();
      }
      const delivery =
        click.data.actions[0]?.action_ts ?? click.data.trigger_id ?? `${deps.clock.now()}`;
      const trigger: Trigger = {
        platform: 'slack',
        kind: 'cancel_button',
        threadKey: record.threadKey,
        actor: {
          id: user.id,
          ...(user.username ? { name: user.username } : {}),
          ...(user.team_id === undefined ? {} : { team: user.team_id }),
        },
        ...(context.enterpriseId === undefined ? {} : { enterprise: context.enterpriseId }),
        text: `cancel ${runId}`,
        addressed: true,
        context: {},
        deliveryId: `home:${delivery}`,
        receivedAt: new Date(deps.clock.now()).toISOString(),
        settingsScope: settingsScopeOf(addr),
        replyPrivatelyTo: user.id,
        runId,
      };
      await reg.sink.accept(trigger);
      await ack();
    });

    routes.action(HOME_EDIT_DEFAULTS_ACTION_ID, async ({ ack, body, context }) => {
      await ack();
      const click = Clicker.safeParse(body);
      const team = context.teamId;
      if (!click.success || team === undefined || click.data.trigger_id === undefined) return;
      if (!(await admit(team, context.enterpriseId, click.data.user)).ok) return;
      const client = await clientFor(team);
      const [current, choices] = await Promise.all([
        deps.source.personalDefaults(team, click.data.user.id),
        catalogueChoices(deps.catalogue),
      ]);
      track(openDefaultsModal(client, click.data.trigger_id, current, choices));
    });

    registerDefaultsModal(routes, {
      save: async (team, user, values) => {
        const verdict = await reg.admit({ team, user });
        if (!verdict.ok) {
          log.info({}, 'Slack personal defaults not saved: refused');
          return;
        }
        await deps.source.setPersonalDefaults(team, user, values);
        track(publish(team, user));
      },
      logger: deps.logger,
      ...(deps.catalogue ? { catalogue: deps.catalogue } : {}),
    });
  }

  return {
    publish,
    runChanged,
    register,
    async stop() {
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      await Promise.allSettled([...pending]);
    },
  };
}
