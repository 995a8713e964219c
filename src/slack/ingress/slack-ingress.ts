/**
 * The Slack ingress: a Bolt app in HTTP mode on the service's one server (`POST
 * /slack/events`: events, slash commands, interactivity), or in Socket Mode when an app token
 * is given (same listeners). It verifies, converts to a Trigger, hands it to the sink and
 * acknowledges. Runs, replies and reactions are the core's business.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { App } from '@slack/bolt';
import type { Catalogue, Clock, Logger, TriggerSink } from '../../core/ports/index.js';
import { systemClock } from '../../core/ports/index.js';
import { networkReason } from '../../core/network-reason.js';
import { RelayError } from '../../core/relay-error.js';
import { slackErrorName } from '../api/delivery-errors.js';
import { createSlackHttpReceiver } from './http-receiver.js';
import { createSlackSocketReceiver } from './socket-receiver.js';
import type { BotIdentity } from '../api/identity.js';
import { createIdentityResolver } from '../api/identity.js';
import type { Whisper } from './listeners.js';
import { registerListeners } from './listeners.js';
import { createSlackRoutes } from '../api/routes.js';
import { toBoltLogger } from '../api/slack-logger.js';
import { createWebClient, normaliseApiUrl } from '../api/web-client.js';
import type { BotTokenSource } from '../api/bot-tokens.js';
import { fixedBotToken, installedBotTokens } from '../api/bot-tokens.js';
import type { SlackInstallations } from '../install/installations.js';
import { NotInstalledError } from '../install/installations.js';
import { registerUninstallListeners } from '../install/uninstall-listeners.js';
import type { SlackHome } from '../home/slack-home.js';
import { registerStartForm } from '../shortcut/start-form-listeners.js';
import { createStartFormSeal } from '../shortcut/start-form-seal.js';
import { registerAgentPane } from '../assistant/agent-pane.js';
import { createAdmit, refusalText } from './access.js';
import type { People } from './people.js';
import { createWorkspaceGate, WorkspaceRefusedError, workspaceRefusal } from './workspace-gate.js';

export interface SlackIngressDeps {
  signingSecret: string;
  /** One workspace; with `installations`, the token of workspaces that have no installation. */
  botToken?: string;
  /** Any number of workspaces (OAuth): each event is answered with its workspace's bot. */
  installations?: SlackInstallations;
  /** App Home: its listeners are registered on this app. */
  home?: SlackHome;
  /** Set: Socket Mode instead of HTTP. */
  appToken?: string;
  apiUrl?: string;
  /** The slash command, e.g. `/agent`. */
  commandName: string;
  allowedChannels: string[];
  allowedUsers: string[];
  sink: TriggerSink;
  logger: Logger;
  clock?: Clock;
  /** Plain replies (no mention) in a thread that has a run are follow-ups. Default false. */
  replyInThreadWithoutMention?: boolean;
  /** The bot's user id; when absent, auth.test tells. */
  botUserId?: string;
  /** A fixed team id for thread keys; when absent, auth.test's (else the payload's). */
  teamId?: string;
  /** Workspaces (T…) and organisations (E…) served; empty: the bot token's own only. */
  allowedTeams?: readonly string[];
  /** OAuth install: any workspace that installs is served. */
  allowAnyWorkspace?: boolean;
  /** The service's environments and models, offered in the start form. */
  catalogue?: Catalogue;
  /**
   * Who a person is (guest, outsider, admin), the platform's one answer (its access answer to
   * the runs asks the same). The message listeners never ask it (the runs do, after the
   * acknowledgement); App Home and the start form, which answer on the spot, do.
   */
  people: People;
}

export interface SlackIngress {
  /** The runtime's HTTP server calls this for `POST /slack/events`. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Learns who the bot is (auth.test) and, in Socket Mode, connects. */
  start(): Promise<void>;
  stop(): Promise<void>;
  readonly mode: 'http' | 'socket';
  readonly app: App;
}

/** The bot token was refused by Slack: nothing Slack-related can work. */
export class SlackAuthError extends RelayError<'slack_auth_failed'> {
  override readonly name = 'SlackAuthError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('slack_auth_failed', message, options);
  }
}

const AUTH_FAILURES = new Set([
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'token_expired',
]);

export function createSlackIngress(deps: SlackIngressDeps): SlackIngress {
  const clock = deps.clock ?? systemClock;
  const log = deps.logger.child({ component: 'slack-ingress' });
  const installations = deps.installations;
  const tokens: BotTokenSource = installations
    ? installedBotTokens(installations, deps.botToken)
    : fixedBotToken(deps.botToken ?? '');
  const client = createWebClient({
    token: deps.botToken ?? '',
    apiUrl: deps.apiUrl,
    logger: deps.logger,
  });
  const configured: BotIdentity = {
    ...(deps.botUserId === undefined ? {} : { botUserId: deps.botUserId }),
    ...(deps.teamId === undefined ? {} : { teamId: deps.teamId }),
  };
  const identity = createIdentityResolver(client, configured);
  const gate = createWorkspaceGate({
    allowedTeams: deps.allowedTeams ?? [],
    allowAnyWorkspace: deps.allowAnyWorkspace ?? false,
    logger: deps.logger,
    clock,
  });
  const mode = deps.appToken !== undefined && deps.appToken !== '' ? 'socket' : 'http';
  const http =
    mode === 'http'
      ? createSlackHttpReceiver({ signingSecret: deps.signingSecret, logger: deps.logger, clock })
      : undefined;
  const receiver =
    http ??
    createSlackSocketReceiver({
      appToken: deps.appToken ?? '',
      apiUrl: deps.apiUrl,
      logger: deps.logger,
    });
  const app = new App({
    receiver,
    authorize: async (source) => {
      const where = { teamId: source.teamId, enterpriseId: source.enterpriseId };
      const refuse = (error: Error): never => {
        gate.dropped(where, error.message);
        throw error;
      };
      if (!gate.allows(where))
        refuse(new WorkspaceRefusedError('the workspace is not on SLACK_ALLOWED_TEAMS'));
      if (installations !== undefined) {
        const bot = await installations.botFor({
          ...(source.teamId === undefined ? {} : { teamId: source.teamId }),
          ...(source.enterpriseId === undefined ? {} : { enterpriseId: source.enterpriseId }),
          isEnterpriseInstall: source.isEnterpriseInstall,
        });
        if (bot !== undefined) {
          if (bot.isEnterpriseInstall && source.teamId && bot.enterpriseId)
            await installations.link(source.teamId, bot.enterpriseId);
          return {
            botToken: bot.token,
            botUserId: bot.botUserId,
            ...(bot.botId === undefined ? {} : { botId: bot.botId }),
            ...((source.teamId ?? bot.teamId) ? { teamId: source.teamId ?? bot.teamId } : {}),
            ...(bot.enterpriseId === undefined ? {} : { enterpriseId: bot.enterpriseId }),
          };
        }
        if (deps.botToken === undefined)
          refuse(new NotInstalledError('the Slack app is not installed in that workspace'));
      }
      const id = await identity.resolve().catch(() => identity.known());
      // The configured token serves its own workspace only.
      if (source.teamId !== undefined && id.teamId !== undefined && source.teamId !== id.teamId)
        refuse(
          installations === undefined
            ? new WorkspaceRefusedError("not the bot token's own workspace")
            : new NotInstalledError('the Slack app is not installed in that workspace'),
        );
      return {
        botToken: deps.botToken,
        botUserId: id.botUserId,
        botId: id.botId,
        teamId: id.teamId,
      };
    },
    logger: toBoltLogger(deps.logger, 'slack-bolt'),
    clientOptions: { slackApiUrl: normaliseApiUrl(deps.apiUrl), retryConfig: { retries: 0 } },
    convoStore: false,
    ignoreSelf: true,
  });
  app.error(async (err) => {
    // A workspace we do not serve: already logged (rate-limited); answered 200, no retries.
    if (workspaceRefusal(err) !== undefined) return;
    log.error({ err }, 'Slack listener failed');
    throw err;
  });

  const pending = new Set<Promise<unknown>>();
  const whisper: Whisper = (to, text) => {
    const p = tokens
      .tokenFor(to.team ?? '')
      .then((token) =>
        client.chat.postEphemeral({
          token,
          channel: to.channel,
          user: to.user,
          text,
          ...(to.threadTs ? { thread_ts: to.threadTs } : {}),
        }),
      )
      .catch((err: unknown) =>
        log.warn({ err, slackError: slackErrorName(err) }, 'Slack ephemeral reply failed'),
      )
      .finally(() => pending.delete(p));
    pending.add(p);
  };

  const { people } = deps;
  // The start form's metadata is sealed with a key derived from a secret the relay holds.
  const startFormSeal = createStartFormSeal(
    deps.signingSecret || deps.appToken || deps.botToken || '',
  );
  const lists = { channels: deps.allowedChannels, users: deps.allowedUsers };
  const admit = createAdmit(lists, people);
  const commandName = deps.commandName.startsWith('/') ? deps.commandName : `/${deps.commandName}`;
  const routes = createSlackRoutes(app);
  const listeners = registerListeners(routes, {
    sink: deps.sink,
    logger: deps.logger,
    clock,
    // The allowlists only: who the person is, Slack is asked by the runs after the ack.
    admit: createAdmit(lists),
    commandName,
    startFormSeal,
    ...(deps.catalogue ? { catalogue: deps.catalogue } : {}),
    replyInThreadWithoutMention: deps.replyInThreadWithoutMention ?? false,
    identity,
    perEventIdentity: installations !== undefined,
    ...(deps.teamId === undefined ? {} : { teamId: deps.teamId }),
    whisper,
  });
  if (installations !== undefined)
    registerUninstallListeners(routes, { installations, logger: deps.logger });
  deps.home?.register(routes, {
    sink: deps.sink,
    admit: async (where) => {
      const verdict = await admit(where);
      return verdict.ok ? verdict : { ok: false, refusal: refusalText(verdict.denial) };
    },
  });
  registerAgentPane(app, {
    onMessage: listeners.handleMessage,
    threadHasRun: (key) => deps.sink.threadHasRun(key),
    logger: deps.logger,
  });
  registerStartForm(routes, {
    sink: deps.sink,
    clock,
    logger: deps.logger,
    seal: startFormSeal,
    ...(deps.catalogue ? { catalogue: deps.catalogue } : {}),
    refusal: async (where) => {
      const verdict = await admit(where);
      return verdict.ok ? undefined : refusalText(verdict.denial);
    },
    whisper,
  });

  let started = false;
  return {
    mode,
    app,
    async handle(req, res) {
      if (http === undefined) {
        log.warn({}, 'Slack HTTP request received while in Socket Mode; answering 404');
        res.writeHead(404);
        res.end();
        return;
      }
      await http.handle(req, res);
    },
    async start() {
      if (deps.allowAnyWorkspace)
        log.warn(
          {},
          'SLACK_ALLOW_ANY_WORKSPACE is on: any Slack workspace may install the app and start ' +
            'runs on this Agent Run Service; list the ones you serve in SLACK_ALLOWED_TEAMS instead',
        );
      if (installations !== undefined && deps.botToken === undefined) {
        log.info(
          { mode, command: commandName },
          'Slack enabled for any number of workspaces (OAuth install on GET /slack/install)',
        );
        await app.start();
        started = true;
        return;
      }
      try {
        const id = await identity.resolve();
        log.info(
          {
            mode,
            botUserId: id.botUserId,
            teamId: id.teamId,
            bot: id.name,
            command: commandName,
            allowedChannels: deps.allowedChannels.length,
            allowedUsers: deps.allowedUsers.length,
          },
          mode === 'http'
            ? 'Slack enabled: HTTP mode on POST /slack/events'
            : 'Slack enabled: Socket Mode',
        );
      } catch (err) {
        const name = slackErrorName(err);
        if (name !== undefined && AUTH_FAILURES.has(name)) {
          throw new SlackAuthError(`Slack refused the bot token (${name}); check SLACK_BOT_TOKEN`, {
            cause: err,
          });
        }
        // One line that says why, not a stack trace (a start-up problem is a sentence);
        // the error itself at debug level.
        const reason = name ?? networkReason(err);
        log.warn(
          { slackError: name, reason },
          `Slack auth.test failed (${reason}); will ask again on the first event`,
        );
        log.debug({ err }, 'Slack auth.test error');
      }
      await app.start();
      started = true;
    },
    async stop() {
      if (started) await app.stop();
      started = false;
      await deps.home?.stop();
      await Promise.allSettled([...pending]);
    },
  };
}
