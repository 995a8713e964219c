/**
 * The fake Linear's OAuth install, as Linear's OAuth 2.0 documentation describes it: a consent
 * page (`GET /oauth/authorize`, which grants at once for the workspace `authorizeAs` names and
 * redirects back with a code), the token endpoint (`POST /oauth/token`, form-encoded, with
 * the client's id and secret) for `grant_type=authorization_code` and
 * `grant_type=refresh_token`, and `POST /oauth/revoke` (the token as the bearer).
 *
 * Since 2026-04-01 Linear issues expiring access tokens: 24 hours (`expires_in` in seconds)
 * with a `refresh_token`, which a refresh spends and replaces (rotation). So does this fake: an
 * access token past its expiry (by the fake's clock) is refused as Linear refuses it, with an
 * authentication error, and a spent refresh token is `invalid_grant`. A workspace's own
 * `token` stands for a personal API key: it never expires.
 *
 * An install that did not get `actor=app` through gets a person's token (Linear answers
 * `viewer` with the person, `app: false`): `authorizeAs(n, 'user')` plays that.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { memberTokenOf, type FakeLinearWorkspace } from './linear-model.js';

/** Linear's lifetime of an OAuth access token, in seconds: 24 hours. */
export const LINEAR_ACCESS_TOKEN_SECONDS = 24 * 60 * 60 - 1;

export interface FakeLinearGrant {
  workspace: number;
  /** Whom the token acts as: the app (`actor=app`), or the person who consented. */
  actor: 'app' | 'user';
  accessToken: string;
  refreshToken: string;
  /** Epoch ms by the fake's clock. */
  expiresAt: number;
}

export interface FakeLinearOAuth {
  /** The OAuth client this fake knows. */
  client: { id: string; secret: string };
  /** What each consent page visit asked for. */
  authorizations: URLSearchParams[];
  /** Every token pair issued (code exchange or refresh), oldest first. */
  grants: FakeLinearGrant[];
  /** Every `grant_type=refresh_token` request, answered or refused. */
  refreshes: { refreshToken: string; ok: boolean }[];
  /** Tokens given back through `POST /oauth/revoke`. */
  revoked: string[];
  /**
   * The workspace (index) whose consent the next authorization grants; `user`: a person's
   * token, as Linear grants when the install did not get `actor=app` through.
   */
  authorizeAs(workspace: number, actor?: 'app' | 'user'): void;
  /** Whom a bearer token acts as (a workspace's own `token` is the app's). */
  actorOf(authorization: string | undefined): 'app' | 'user';
  /**
   * The workspace a bearer token belongs to, or why not: `expired` for an issued access token
   * past its expiry, `unknown` for anything else (revoked, never issued).
   */
  ownerOf(authorization: string | undefined): FakeLinearWorkspace | 'expired' | 'unknown';
  /** Answer the request when it is one of the OAuth routes; false otherwise. */
  handle(req: IncomingMessage, res: ServerResponse, raw: string): boolean;
}

export function createFakeLinearOAuth(
  workspaces: FakeLinearWorkspace[],
  clock: () => number = Date.now,
): FakeLinearOAuth {
  const client = { id: 'linear-client-dummy', secret: 'linear-client-secret-dummy-123' };
  const codes = new Map<
    string,
    { workspace: number; redirectUri: string; actor: 'app' | 'user' }
  >();
  const authorizations: URLSearchParams[] = [];
  const grants: FakeLinearGrant[] = [];
  const refreshes: FakeLinearOAuth['refreshes'] = [];
  const revoked: string[] = [];
  const byAccess = new Map<string, FakeLinearGrant>();
  /** Refresh tokens not spent yet. */
  const byRefresh = new Map<string, FakeLinearGrant>();
  let grantFor = 0;
  let grantActor: 'app' | 'user' = 'app';
  const bearerOf = (authorization: string | undefined) =>
    /^Bearer (.+)$/.exec(authorization ?? '')?.[1] ?? authorization;

  function consent(url: URL, res: ServerResponse): void {
    authorizations.push(url.searchParams);
    const code = randomUUID();
    const redirectUri = url.searchParams.get('redirect_uri') ?? '';
    codes.set(code, { workspace: grantFor, redirectUri, actor: grantActor });
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    back.searchParams.set('state', url.searchParams.get('state') ?? '');
    res.writeHead(302, { location: back.toString() });
    res.end();
  }

  function issue(workspace: number, actor: 'app' | 'user'): FakeLinearGrant {
    const grant: FakeLinearGrant = {
      workspace,
      actor,
      accessToken: `lin_oauth_dummy_${randomUUID().replaceAll('-', '')}`,
      refreshToken: `lin_refresh_dummy_${randomUUID().replaceAll('-', '')}`,
      expiresAt: clock() + LINEAR_ACCESS_TOKEN_SECONDS * 1000,
    };
    grants.push(grant);
    byAccess.set(grant.accessToken, grant);
    byRefresh.set(grant.refreshToken, grant);
    return grant;
  }

  function token(raw: string, res: ServerResponse): void {
    const form = new URLSearchParams(raw);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (form.get('client_id') !== client.id || form.get('client_secret') !== client.secret)
      return json(401, { error: 'invalid_client' });
    let workspace: number;
    let actor: 'app' | 'user';
    const kind = form.get('grant_type');
    if (kind === 'authorization_code') {
      const code = codes.get(form.get('code') ?? '');
      if (!code || code.redirectUri !== form.get('redirect_uri'))
        return json(400, { error: 'invalid_grant' });
      codes.delete(form.get('code') ?? '');
      workspace = code.workspace;
      actor = code.actor;
    } else if (kind === 'refresh_token') {
      const given = form.get('refresh_token') ?? '';
      const old = byRefresh.get(given);
      refreshes.push({ refreshToken: given, ok: old !== undefined });
      if (!old) return json(400, { error: 'invalid_grant' });
      byRefresh.delete(given);
      workspace = old.workspace;
      actor = old.actor;
    } else return json(400, { error: 'unsupported_grant_type' });
    const grant = issue(workspace, actor);
    json(200, {
      access_token: grant.accessToken,
      token_type: 'Bearer',
      expires_in: LINEAR_ACCESS_TOKEN_SECONDS,
      scope: 'read,write,app:assignable,app:mentionable',
      refresh_token: grant.refreshToken,
    });
  }

  function revoke(req: IncomingMessage, res: ServerResponse): void {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const grant = bearer ? byAccess.get(bearer) : undefined;
    if (!bearer || !grant) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'invalid_token' }));
      return;
    }
    revoked.push(bearer);
    byAccess.delete(bearer);
    byRefresh.delete(grant.refreshToken);
    res.writeHead(200);
    res.end();
  }

  return {
    client,
    authorizations,
    grants,
    refreshes,
    revoked,
    authorizeAs(workspace, actor = 'app') {
      grantFor = workspace;
      grantActor = actor;
    },
    actorOf(authorization) {
      const bearer = bearerOf(authorization);
      if (workspaces.some((w) => bearer === memberTokenOf(w))) return 'user';
      return (bearer ? byAccess.get(bearer)?.actor : undefined) ?? 'app';
    },
    ownerOf(authorization) {
      const bearer = bearerOf(authorization);
      const fixed = workspaces.find((w) => bearer === w.token || bearer === memberTokenOf(w));
      if (fixed) return fixed;
      const grant = bearer ? byAccess.get(bearer) : undefined;
      if (!grant) return 'unknown';
      if (clock() >= grant.expiresAt) return 'expired';
      return workspaces[grant.workspace] ?? 'unknown';
    },
    handle(req, res, raw) {
      const url = new URL(req.url ?? '/', 'http://fake');
      if (req.method === 'GET' && url.pathname === '/oauth/authorize') {
        consent(url, res);
        return true;
      }
      if (req.method === 'POST' && url.pathname === '/oauth/token') {
        token(raw, res);
        return true;
      }
      if (req.method === 'POST' && url.pathname === '/oauth/revoke') {
        revoke(req, res);
        return true;
      }
      return false;
    },
  };
}
