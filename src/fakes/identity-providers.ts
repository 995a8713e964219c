/**
 * Sign in with Slack (OpenID Connect) and with GitHub (OAuth) as the console sees them, on
 * one loopback server: the authorize pages (the person "approves" at once and is sent back
 * with a code), the token exchanges (client id, secret, code and redirect URI checked; each
 * code good once) and who the token belongs to (Slack's userInfo, GitHub's `/user` and
 * `/user/orgs`). Set who is signed in at each with `signInAs`.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

export interface FakeSlackPerson {
  team: string;
  user: string;
  name: string;
}
export interface FakeGitHubPerson {
  login: string;
  name: string;
  orgs: string[];
  /** The account id; default one derived from the login. */
  id?: number;
}

/** A stable account id per login (the real one is GitHub's; any positive number will do). */
function idOf(person: FakeGitHubPerson): number {
  if (person.id !== undefined) return person.id;
  let n = 7;
  for (const ch of person.login) n = (n * 31 + ch.charCodeAt(0)) % 1_000_000_007;
  return n + 1;
}

export interface FakeIdentityProviders {
  /** Base for CONSOLE_SLACK_URL, CONSOLE_GITHUB_URL and (for `/user`) GITHUB_API_URL. */
  readonly url: string;
  signInAs: { slack: FakeSlackPerson; github: FakeGitHubPerson };
  /** Every request, as `METHOD path`. */
  readonly requests: string[];
  close(): Promise<void>;
}

interface Grant {
  provider: 'slack' | 'github';
  clientId: string;
  redirectUri: string;
  nonce?: string;
  slack: FakeSlackPerson;
  github: FakeGitHubPerson;
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

export async function startFakeIdentityProviders(clients: {
  slack: { clientId: string; secret: string };
  github: { clientId: string; secret: string };
}): Promise<FakeIdentityProviders> {
  const codes = new Map<string, Grant>();
  const tokens = new Map<string, Grant>();
  const requests: string[] = [];
  const fake: FakeIdentityProviders = {
    url: '',
    signInAs: {
      slack: { team: 'T0000001', user: 'U0OPERATOR', name: 'Olivia Operator' },
      github: { login: 'octo-operator', name: 'Octo Operator', orgs: ['acme'] },
    },
    requests,
    close: async () => undefined,
  };

  const json = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  function authorize(res: ServerResponse, q: URLSearchParams, provider: 'slack' | 'github') {
    const clientId = q.get('client_id') ?? '';
    const redirectUri = q.get('redirect_uri') ?? '';
    if (clientId !== clients[provider].clientId || !redirectUri)
      return json(res, 400, { error: 'invalid_client' });
    const code = randomBytes(12).toString('hex');
    codes.set(code, {
      provider,
      clientId,
      redirectUri,
      ...(q.get('nonce') ? { nonce: q.get('nonce')! } : {}),
      slack: { ...fake.signInAs.slack },
      github: { ...fake.signInAs.github, orgs: [...fake.signInAs.github.orgs] },
    });
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    back.searchParams.set('state', q.get('state') ?? '');
    res.writeHead(302, { location: back.toString() }).end();
  }

  function exchange(form: URLSearchParams, provider: 'slack' | 'github'): Grant | string {
    const grant = codes.get(form.get('code') ?? '');
    if (!grant || grant.provider !== provider) return 'invalid_code';
    codes.delete(form.get('code') ?? '');
    if (form.get('client_id') !== grant.clientId) return 'invalid_client_id';
    if (form.get('client_secret') !== clients[provider].secret) return 'bad_client_secret';
    if (form.get('redirect_uri') !== grant.redirectUri) return 'bad_redirect_uri';
    return grant;
  }

  const bearer = (req: IncomingMessage) =>
    tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));

  function handle(req: IncomingMessage, res: ServerResponse, raw: string) {
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    requests.push(`${req.method} ${url.pathname}`);
    const form = new URLSearchParams(raw);
    const route = `${req.method} ${url.pathname}`;
    if (route === 'GET /openid/connect/authorize') return authorize(res, url.searchParams, 'slack');
    if (route === 'GET /login/oauth/authorize') return authorize(res, url.searchParams, 'github');
    if (route === 'POST /api/openid.connect.token') {
      const grant = exchange(form, 'slack');
      if (typeof grant === 'string') return json(res, 200, { ok: false, error: grant });
      const token = `xoxp-fake-${randomBytes(8).toString('hex')}`;
      tokens.set(token, grant);
      const idToken = `${b64({ alg: 'none' })}.${b64({ iss: 'https://slack.com', aud: grant.clientId, sub: grant.slack.user, nonce: grant.nonce })}.`;
      return json(res, 200, {
        ok: true,
        access_token: token,
        token_type: 'Bearer',
        id_token: idToken,
      });
    }
    if (route === 'POST /api/openid.connect.userInfo') {
      const grant = bearer(req);
      if (!grant || grant.provider !== 'slack')
        return json(res, 200, { ok: false, error: 'invalid_auth' });
      return json(res, 200, {
        ok: true,
        sub: grant.slack.user,
        'https://slack.com/user_id': grant.slack.user,
        'https://slack.com/team_id': grant.slack.team,
        name: grant.slack.name,
      });
    }
    if (route === 'POST /login/oauth/access_token') {
      const grant = exchange(form, 'github');
      if (typeof grant === 'string') return json(res, 200, { error: grant });
      const token = `gho_fake${randomBytes(8).toString('hex')}`;
      tokens.set(token, grant);
      return json(res, 200, { access_token: token, token_type: 'bearer', scope: 'read:org' });
    }
    const grant = bearer(req);
    if (route === 'GET /user' || route === 'GET /user/orgs') {
      if (!grant || grant.provider !== 'github')
        return json(res, 401, { message: 'Bad credentials' });
      if (route === 'GET /user')
        return json(res, 200, {
          login: grant.github.login,
          id: idOf(grant.github),
          name: grant.github.name,
        });
      return json(
        res,
        200,
        grant.github.orgs.map((login, i) => ({ login, id: i + 1 })),
      );
    }
    json(res, 404, { message: 'Not Found' });
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  (fake as { url: string }).url = `http://127.0.0.1:${port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
