/**
 * The fake Linear's OAuth install: a consent page (`GET /oauth/authorize`, which grants at
 * once for the workspace `authorizeAs` names and redirects back with a code) and the code
 * exchange (`POST /oauth/token`, form-encoded, answering with that workspace's app token).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { memberTokenOf, type FakeLinearWorkspace } from './linear-model.js';

export interface FakeLinearOAuth {
  /** The OAuth client this fake knows. */
  client: { id: string; secret: string };
  /** What each consent page visit asked for. */
  authorizations: URLSearchParams[];
  /**
   * The workspace (index) whose consent the next authorization grants; `user`: a person's
   * token, as Linear grants when the install did not get `actor=app` through.
   */
  authorizeAs(workspace: number, actor?: 'app' | 'user'): void;
  /** Answer the request when it is one of the OAuth routes; false otherwise. */
  handle(req: IncomingMessage, res: ServerResponse, raw: string): boolean;
}

export function createFakeLinearOAuth(workspaces: FakeLinearWorkspace[]): FakeLinearOAuth {
  const client = { id: 'linear-client-dummy', secret: 'linear-client-secret-dummy-123' };
  const codes = new Map<string, { workspace: number; redirectUri: string; actor: string }>();
  const authorizations: URLSearchParams[] = [];
  let grantFor = 0;
  let grantActor: 'app' | 'user' = 'app';

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

  function exchange(raw: string, res: ServerResponse): void {
    const form = new URLSearchParams(raw);
    const grant = codes.get(form.get('code') ?? '');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (form.get('client_id') !== client.id || form.get('client_secret') !== client.secret)
      return json(401, { error: 'invalid_client' });
    if (!grant || grant.redirectUri !== form.get('redirect_uri'))
      return json(400, { error: 'invalid_grant' });
    codes.delete(form.get('code') ?? '');
    json(200, {
      access_token:
        grant.actor === 'user'
          ? memberTokenOf(workspaces[grant.workspace]!)
          : workspaces[grant.workspace]!.token,
      token_type: 'Bearer',
      expires_in: 315705599,
      scope: 'read,write,app:assignable,app:mentionable',
    });
  }

  return {
    client,
    authorizations,
    authorizeAs(workspace, actor = 'app') {
      grantFor = workspace;
      grantActor = actor;
    },
    handle(req, res, raw) {
      const url = new URL(req.url ?? '/', 'http://fake');
      if (req.method === 'GET' && url.pathname === '/oauth/authorize') {
        consent(url, res);
        return true;
      }
      if (req.method === 'POST' && url.pathname === '/oauth/token') {
        exchange(raw, res);
        return true;
      }
      return false;
    },
  };
}
