/**
 * The bot's Bot Connector token from an Azure managed identity instead of a client secret,
 * through the Teams SDK's own, documented path: an `App` (`@microsoft/teams.apps`) given the
 * app id, its tenant and `managedIdentityClientId`, asked through its public `tokenProvider`.
 * The SDK (MSAL's managed identity client underneath) asks the host's identity endpoint (on a
 * VM, Azure's instance metadata service) for a token, and then, when the identity is not the
 * bot itself (`system`, or another user-assigned identity), trades it at Entra for the bot's
 * token through the app's federated identity credential. The `App` is only a token source
 * here: it gets an adapter that serves no route and is never started.
 */
import type {
  AppOptions,
  IAppTokenProvider,
  IHttpServerAdapter,
  IPlugin,
} from '@microsoft/teams.apps';
import type { TeamsConfig } from '../../config/types.js';
import type { Logger } from '../../core/ports/index.js';
import type { CloudEnvironment } from './cloud.js';
import type { ConnectorCredential } from './connector-client.js';

export interface ManagedIdentityTokenDeps {
  appId: string;
  tenantId: string;
  /** A user-assigned identity's client id, or `system`. */
  managedIdentityClientId: string;
  cloud: CloudEnvironment;
  logger: Logger;
}

/** A token and when it expires (epoch ms), if the token says. */
export interface AppToken {
  token: string;
  expiresAt?: number;
}

export type AppTokenSource = () => Promise<AppToken>;

/** Which of the SDK's managed identity paths a client id takes (as its docs tell them). */
export function managedIdentityKind(appId: string, clientId: string): string {
  if (clientId === 'system') return 'system-assigned managed identity (federated credential)';
  if (clientId === appId.toLowerCase()) return 'user-assigned managed identity';
  return `user-assigned managed identity ${clientId} (federated credential)`;
}

type SdkLogger = NonNullable<AppOptions<IPlugin>['logger']>;

/** The SDK's logger (its messages as arguments) on the relay's. */
function sdkLogger(logger: Logger, name: string): SdkLogger {
  const text = (msg: unknown[]) =>
    msg.map((m) => (typeof m === 'string' ? m : String(m))).join(' ');
  const at =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (...msg: unknown[]) =>
      logger[level]({ sdk: name }, text(msg));
  return {
    debug: at('debug'),
    trace: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    log: (level, ...msg) => at(level === 'trace' ? 'debug' : level)(...msg),
    child: (child) => sdkLogger(logger, `${name}/${child}`),
  };
}

/** Serves nothing: the relay's own server takes the Bot Connector's requests. */
const NO_ROUTES: IHttpServerAdapter = { registerRoute() {} };

/**
 * The token source. The SDK is loaded, and its `App` made, at the first ask (a relay with a
 * client secret never loads it); a failure is tried afresh at the next ask.
 */
export function createManagedIdentityToken(deps: ManagedIdentityTokenDeps): AppTokenSource {
  let provider: Promise<IAppTokenProvider> | undefined;
  async function tokenProvider(): Promise<IAppTokenProvider> {
    const { App } = await import('@microsoft/teams.apps');
    const app = new App({
      clientId: deps.appId,
      tenantId: deps.tenantId,
      managedIdentityClientId: deps.managedIdentityClientId,
      cloud: deps.cloud,
      httpServerAdapter: NO_ROUTES,
      logger: sdkLogger(deps.logger.child({ component: 'teams-sdk' }), '@teams/app'),
    });
    // The SDK prefers CLIENT_SECRET (or a token callback) when it finds one in the environment.
    const credentials = app.credentials;
    if (credentials === undefined || 'clientSecret' in credentials || 'token' in credentials)
      throw new Error(
        'the Teams SDK did not choose the managed identity (is CLIENT_SECRET set in the environment?)',
      );
    return app.tokenProvider;
  }
  return async () => {
    provider ??= tokenProvider().catch((err: unknown) => {
      provider = undefined;
      throw err;
    });
    const token = await (await provider).getAppToken(deps.cloud.botScope, deps.tenantId);
    if (token === null) throw new Error('the Teams SDK gave no token');
    return {
      token: token.toString(),
      ...(token.expiration === undefined ? {} : { expiresAt: token.expiration }),
    };
  };
}

/** The bot's credential as the connector client takes it: the secret, or the identity. */
export function connectorCredential(
  teams: Pick<TeamsConfig, 'appId' | 'tenantId' | 'credential'>,
  cloud: CloudEnvironment,
  logger: Logger,
): ConnectorCredential {
  const { credential } = teams;
  if (credential.kind === 'secret') return { appPassword: credential.appPassword };
  return {
    appToken: createManagedIdentityToken({
      appId: teams.appId,
      tenantId: teams.tenantId,
      managedIdentityClientId: credential.clientId,
      cloud,
      logger,
    }),
  };
}

/** Which credential the bot's token is asked with, for the start-up report and doctor. */
export function describeCredential(teams: Pick<TeamsConfig, 'appId' | 'credential'>): string {
  const { credential } = teams;
  return credential.kind === 'secret'
    ? 'client secret (TEAMS_APP_PASSWORD)'
    : `${managedIdentityKind(teams.appId, credential.clientId)} (TEAMS_MANAGED_IDENTITY_CLIENT_ID)`;
}
