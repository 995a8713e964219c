/**
 * The Bot Connector's token on an incoming activity, checked with the Teams SDK's own
 * validator (`JwtValidator` of `@microsoft/teams.apps`, the one its
 * `InboundActivityTokenValidator` uses for classic bot activities): RS256 against the keys the
 * cloud's OpenID metadata publishes, the issuer (`https://api.botframework.com` on the public
 * cloud), the audience (the bot's app id), the lifetime (5 minutes of clock skew, the SDK's).
 * Then the relay's own rules: the token's `serviceurl` claim must name the activity's
 * `serviceUrl` (the SDK skips that check when the body has none; here it is required), and
 * the activity's tenant must be one of TEAMS_ALLOWED_TENANTS.
 *
 * The key source is the cloud's published metadata; a test (never the environment) may name
 * another one (`PlatformOverrides.teamsOpenIdMetadataUrl`), a local fake's.
 */
import { JwtValidator } from '@microsoft/teams.apps/dist/middleware/auth/jwt-validator.js';
import type { Logger } from '../../core/ports/index.js';
import { keysUriOf } from '../api/cloud.js';

export interface TokenCheckDeps {
  appId: string;
  /** The issuer of the Bot Connector's tokens (the cloud's `tokenIssuer`). */
  issuer: string;
  /** The OpenID metadata whose keys sign the tokens (the cloud's `openIdMetadataUrl`). */
  openIdMetadataUrl: string;
  logger: Logger;
}

export type TokenVerdict =
  | { ok: true; serviceUrl: string }
  | { ok: false; reason: 'missing_token' | 'invalid_token' | 'service_url_mismatch' };

type SdkLogger = NonNullable<ConstructorParameters<typeof JwtValidator>[1]>;

/** The SDK's log lines at debug, through the relay's logger (its errors name no secret). */
function sdkLogger(logger: Logger): SdkLogger {
  const say = (...msg: unknown[]) =>
    logger.debug({ sdk: msg.map((m) => (m instanceof Error ? m.message : m)) }, 'teams sdk');
  const self: SdkLogger = {
    debug: say,
    info: say,
    warn: say,
    error: say,
    trace: say,
    log: (_level, ...msg) => say(...msg),
    child: () => self,
  };
  return self;
}

const normal = (url: string) => url.replace(/\/+$/, '').toLowerCase();

export interface TokenCheck {
  check(authorization: string | undefined, serviceUrl: string | undefined): Promise<TokenVerdict>;
}

export function createTokenCheck(deps: TokenCheckDeps): TokenCheck {
  const validator = new JwtValidator(
    {
      clientId: deps.appId,
      validateIssuer: { allowedIssuer: deps.issuer },
      jwksUriOptions: { type: 'uri', uri: keysUriOf(deps.openIdMetadataUrl) },
    },
    sdkLogger(deps.logger),
  );
  return {
    async check(authorization, serviceUrl) {
      const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
      if (token === undefined) return { ok: false, reason: 'missing_token' };
      const payload = await validator.validateAccessToken(token).catch(() => null);
      if (payload === null) return { ok: false, reason: 'invalid_token' };
      const claimed = (payload as { serviceurl?: unknown }).serviceurl;
      if (
        typeof claimed !== 'string' ||
        serviceUrl === undefined ||
        normal(claimed) !== normal(serviceUrl)
      )
        return { ok: false, reason: 'service_url_mismatch' };
      return { ok: true, serviceUrl };
    },
  };
}
