/**
 * Many Linear workspaces through OAuth install: each workspace's token is kept sealed and used
 * only for its own sessions, a workspace off the allowlist is refused, and `list` in one
 * workspace never shows another's runs.
 */
import { request as httpRequest } from 'node:http';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { installLinear as install, startLinearWorld } from '../helpers/linear.js';
import { worldPerTest } from '../helpers/world-per-test.js';

const startWorld = worldPerTest(startLinearWorld, (w) => {
  for (const ws of w.linear.workspaces) expect(w.logs.text()).not.toContain(ws.token);
  for (const g of w.linear.oauthGrants) {
    expect(w.logs.text()).not.toContain(g.accessToken);
    expect(w.logs.text()).not.toContain(g.refreshToken);
  }
});

function sealedTokens(path: string): { team_id: string; sealed: string }[] {
  const db = new BetterSqlite3(path, { readonly: true });
  try {
    return db
      .prepare(`select team_id, sealed from installations where platform = 'linear'`)
      .all() as { team_id: string; sealed: string }[];
  } finally {
    db.close();
  }
}

describe('Linear in many workspaces (OAuth install)', () => {
  it('asks for an app actor with the agent scopes, and keeps each token sealed', async () => {
    const world = await startWorld({ oauthOrganizations: ['org-acme', 'org-globex'] });
    const done = await install(world, 0);
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('installed in this Linear workspace');
    const asked = world.linear.authorizations[0]!;
    expect(asked.get('actor')).toBe('app');
    expect(asked.get('scope')!.split(',')).toEqual(
      expect.arrayContaining(['app:assignable', 'app:mentionable']),
    );
    const rows = sealedTokens(world.relay.databasePath);
    expect(rows.map((r) => r.team_id)).toEqual(['org-acme']);
    const [grant] = world.linear.oauthGrants;
    expect(rows[0]!.sealed).not.toContain(grant!.accessToken);
    expect(rows[0]!.sealed).not.toContain(grant!.refreshToken);
    // A state is good once, and a forged one not at all.
    const replay = await fetch(done.back, { headers: { cookie: done.cookie } });
    expect(replay.status).toBe(400);
    const forged = await fetch(
      `${world.relay.service.url}/linear/oauth_redirect?code=x&state=9999999999999.x.forged`,
    );
    expect(forged.status).toBe(400);
    expect(sealedTokens(world.relay.databasePath)).toHaveLength(1);
  });

  it('refuses an organization that is not allowed, and keeps nothing of it', async () => {
    const world = await startWorld({ oauthOrganizations: ['org-acme'] });
    const refused = await install(world, 1);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('LINEAR_ALLOWED_ORGANIZATIONS');
    expect(sealedTokens(world.relay.databasePath)).toEqual([]);
    // The token it was granted went back to Linear (POST /oauth/revoke): no working token left.
    const [granted] = world.linear.oauthGrants;
    expect(world.linear.oauthRevoked).toEqual([granted!.accessToken]);
    expect(world.linear.ownerOf(`Bearer ${granted!.accessToken}`)).toBe('unknown');
  });

  it('keeps two workspaces apart: each answered with its own token, each list its own runs', async () => {
    const world = await startWorld({ oauthOrganizations: ['org-acme', 'org-globex'] });
    expect((await install(world, 0)).status).toBe(200);
    expect((await install(world, 1)).status).toBe(200);
    const { linear } = world;
    const acme = await linear.openSession({ workspace: 0, title: 'Acme task' });
    const globex = await linear.openSession({ workspace: 1, title: 'Globex task' });
    await world.waitForActivity(acme.session.id, (a) => a.content.type === 'response');
    await world.waitForActivity(globex.session.id, (a) => a.content.type === 'response');
    // Every write into a session carried that session's workspace token.
    const [acmeWs, globexWs] = linear.workspaces;
    const creates = linear.requests.filter((r) => r.operation === 'AgentActivityCreate');
    for (const r of creates) {
      const input = r.variables.input as { agentSessionId: string };
      const owner = linear.sessions.get(input.agentSessionId)!.organizationId;
      const ws = owner === 'org-acme' ? acmeWs! : globexWs!;
      expect(linear.ownerOf(r.authorization)).toBe(ws);
    }
    const listed = await world.answerTo(acme.session.id, 'list');
    expect(listed.content.body).toContain('Acme task');
    expect(listed.content.body).not.toContain('Globex task');
  });

  it('finishes only in the browser that started the install (its state cookie)', async () => {
    const world = await startWorld({ oauthOrganizations: ['org-acme'] });
    const elsewhere = await install(world, 0, { cookie: 'linear_oauth_state=someone-elses' });
    expect(elsewhere.status).toBe(400);
    const without = await install(world, 0, { cookie: '' });
    expect(without.status).toBe(400);
    expect(sealedTokens(world.relay.databasePath)).toEqual([]);
    expect((await install(world, 0)).status).toBe(200);
  });

  it("a later install with a person's token (not actor=app) is refused and the app's token stays", async () => {
    const world = await startWorld({ oauthOrganizations: ['org-acme'] });
    expect((await install(world, 0)).status).toBe(200);
    const before = sealedTokens(world.relay.databasePath);
    const asPerson = await install(world, 0, { actor: 'user' });
    expect(asPerson.status).toBe(403);
    expect(await asPerson.text()).toContain('not as the app');
    expect(sealedTokens(world.relay.databasePath)).toEqual(before);
  });

  it('takes redirect_uri from CONSOLE_PUBLIC_URL, never from the Host header', async () => {
    const world = await startWorld({
      oauthOrganizations: ['org-acme'],
      env: { CONSOLE_PUBLIC_URL: 'https://relay.example.test/' },
    });
    const start = await fetch(`${world.relay.service.url}/linear/install`, {
      redirect: 'manual',
      headers: { host: 'evil.example', 'x-forwarded-proto': 'https' },
    });
    const asked = new URL(start.headers.get('location')!);
    expect(asked.searchParams.get('redirect_uri')).toBe(
      'https://relay.example.test/linear/oauth_redirect',
    );
    expect(start.headers.get('set-cookie')).toContain('Secure');
  });

  it('without CONSOLE_PUBLIC_URL, an install reached under another Host does not start', async () => {
    const world = await startWorld({ oauthOrganizations: ['org-acme'] });
    // fetch will not send another Host: a plain request does.
    const url = new URL(`${world.relay.service.url}/linear/install`);
    const answer = await new Promise<{ status: number; location?: string; body: string }>(
      (resolve, reject) => {
        const req = httpRequest(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            headers: { host: 'evil.example' },
          },
          (res) => {
            let body = '';
            res.on('data', (chunk: Buffer) => (body += chunk.toString()));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                ...(res.headers.location ? { location: res.headers.location } : {}),
                body,
              }),
            );
          },
        );
        req.on('error', reject);
        req.end();
      },
    );
    expect(answer.location ?? '').not.toContain('evil.example');
    expect(answer.status).toBe(500);
    expect(answer.body).toContain('CONSOLE_PUBLIC_URL');
  });
});
