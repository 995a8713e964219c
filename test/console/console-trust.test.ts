/**
 * The console's trust boundaries, attacked over plain HTTP against the running service: the
 * admin link through any proxy and after it expired, malformed input, roles (operator,
 * viewer, guest), sessions kept server-side, single-use sign-in state, GitHub account ids
 * over logins, and the body bound of its forms.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  cookieOf,
  csrfOf,
  parkNotification,
  runRecord,
  signInLocally,
  signInThrough,
  consolePerFile,
  withOtherConsole,
} from './console-harness.js';
import type { ConsoleHarness } from './console-harness.js';

const h = consolePerFile();
/** The local admin's session (an operator). */
let admin: string;
beforeAll(async () => {
  admin = await signInLocally(h.service);
});

describe('the one-time admin link', () => {
  it('is refused when the request came through any proxy, and still works directly', async () => {
    await withOtherConsole({}, async (other) => {
      const link = other.service.console!.adminLink!;
      for (const [header, value] of [
        ['via', '1.1 proxy.example'],
        ['forwarded', 'for=198.51.100.1'],
        ['x-forwarded-proto', 'https'],
        ['x-forwarded-host', 'relay.example.com'],
        ['x-real-ip', '198.51.100.1'],
        ['cf-connecting-ip', '198.51.100.1'],
        ['true-client-ip', '198.51.100.1'],
        ['fastly-client-ip', '198.51.100.1'],
        ['x-client-ip', '198.51.100.1'],
        ['x-cluster-client-ip', '198.51.100.1'],
      ] as const) {
        const res = await fetch(link, { redirect: 'manual', headers: { [header]: value } });
        expect(res.status, header).toBe(403);
        expect(cookieOf(res), header).toBeUndefined();
      }
      const direct = await fetch(link, { redirect: 'manual' });
      expect(direct.status).toBe(303);
      expect(cookieOf(direct)).toBeDefined();
    });
  });

  it('is refused once its minutes have passed, even unused', async () => {
    let offset = 0;
    await withOtherConsole(
      { CONSOLE_ADMIN_LINK_MINUTES: '15' },
      async (other) => {
        offset = 15 * 60_000 + 1_000;
        const late = await fetch(other.service.console!.adminLink!, { redirect: 'manual' });
        expect(late.status).toBe(403);
        expect(cookieOf(late)).toBeUndefined();
        expect(await late.text()).toContain('expired');
      },
      { clock: { now: () => Date.now() + offset } },
    );
  });
});

describe('malformed console input', () => {
  it('a run id that does not decode gets 400, not 500', async () => {
    const res = await h.get('/console/runs/%E0%A4%A', admin);
    expect(res.status).toBe(400);
    expect(await res.text()).not.toMatch(/at .*\.ts:\d+|Error:/);
  });

  it.each([
    ['a character no Location header may carry', '/console/\u0100'],
    ['a control character', '/console/\u0000x'],
    ['another site', '//evil.example/console'],
    ['a backslash', '/console\\..\\evil'],
  ])('a back= value with %s gets 400, and nothing is done', async (_what, back) => {
    const page = await (await h.get('/console/queues', admin)).text();
    const form = new URLSearchParams({
      kind: 'notification',
      id: '999999',
      action: 'discard',
      csrf: csrfOf(page),
      back,
    });
    const res = await h.post('/console/actions', form.toString(), admin);
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });
});

/** A sign-in through the fake provider, to this file's console or to `harness`. */
const signInWith = (provider: 'slack' | 'github', harness: ConsoleHarness = h) =>
  signInThrough(harness, provider);

const parked = (text: string) =>
  parkNotification(h, 'slack:T0000001:C0SECRET:1700000000.000900', text);

describe('roles', () => {
  it('a workspace member is a viewer: public-channel runs only, no queues, no actions', async () => {
    h.slack.privateChannels.add('C0SECRET');
    await h.service.store.runs.insert(
      runRecord({ runId: 'run-public-1', threadKey: 'slack:T0000001:C0PUBLIC:1700000001.000100' }),
    );
    await h.service.store.runs.insert(
      runRecord({
        runId: 'run-secret-1',
        threadKey: 'slack:T0000001:C0SECRET:1700000001.000200',
        title: 'merge the acquisition data room',
      }),
    );
    const id = await parked('a reply in the secret channel');
    h.idp.signInAs.slack = { team: 'T0000001', user: 'U0VIEWER', name: 'Vera Viewer' };
    const signedIn = await signInWith('slack');
    expect(signedIn.status).toBe(303);
    const viewer = cookieOf(signedIn)!;

    const list = await (await h.get('/console', viewer)).text();
    expect(list).toContain('data-run="run-public-1"');
    expect(list).not.toContain('run-secret-1');
    expect(list).not.toContain('acquisition data room');
    expect(list).not.toContain('/console/queues');
    expect((await h.get('/console/runs/run-secret-1', viewer)).status).toBe(404);
    expect((await h.get('/console/runs/run-public-1', viewer)).status).toBe(200);
    const queues = await h.get('/console/queues', viewer);
    expect(queues.status).toBe(403);
    expect(await queues.text()).not.toContain('secret channel');

    // The form is forged from the viewer's own page token: refused all the same.
    const csrf = csrfOf(list);
    const form = new URLSearchParams({
      kind: 'notification',
      id: String(id),
      action: 'discard',
      csrf,
    });
    const act = await h.post('/console/actions', form.toString(), viewer);
    expect(act.status).toBe(403);
    expect(
      (await h.service.store.outboxQueue.list({ status: 'parked' })).some((n) => n.id === id),
    ).toBe(true);

    // The operator sees it all and may act.
    const all = await (await h.get('/console', admin)).text();
    expect(all).toContain('data-run="run-secret-1"');
    expect(await (await h.get('/console/queues', admin)).text()).toContain(
      `data-action="discard-notification-${id}"`,
    );
  });

  it("a viewer sees the spend of public places only; the operator sees every place's", async () => {
    h.slack.privateChannels.add('C0VAULT');
    const now = Date.now();
    await h.service.store.runs.insert(
      runRecord({
        runId: 'run-spend-open',
        threadKey: 'slack:T0000001:C0OPENSPEND:1700000001.000300',
        costUsd: 2,
        createdAt: now,
      }),
    );
    await h.service.store.runs.insert(
      runRecord({
        runId: 'run-spend-vault',
        threadKey: 'slack:T0000001:C0VAULT:1700000001.000400',
        costUsd: 9,
        createdAt: now,
      }),
    );
    await h.service.store.settings.set('slack:T0000001:C0VAULT', 'budget', '10', 'U0ADMIN', now);
    h.idp.signInAs.slack = { team: 'T0000001', user: 'U0VIEWER2', name: 'Vic Viewer' };
    const viewer = cookieOf(await signInWith('slack'))!;
    const seen = await (await h.get('/console/places', viewer)).text();
    expect(seen).toContain('data-place="slack:T0000001:C0OPENSPEND"');
    expect(seen).not.toContain('C0VAULT');
    expect(seen).not.toContain('$9');
    const all = await (await h.get('/console/places', admin)).text();
    expect(all).toContain('data-place="slack:T0000001:C0VAULT"');
    expect(all).toContain('90 %');
    // Sorted by cost, the runs list keeps the viewer rule too.
    const runs = await (await h.get('/console?sort=cost', viewer)).text();
    expect(runs).toContain('data-run="run-spend-open"');
    expect(runs).not.toContain('run-spend-vault');
  });

  it("a viewer sees their own tenant only: no other workspace's public runs or spend, and a GitHub-org viewer no Slack run", async () => {
    const now = Date.now();
    await h.service.store.runs.insert(
      runRecord({
        runId: 'run-own-open',
        threadKey: 'slack:T0000001:C0OWNOPEN:1700000002.000100',
        costUsd: 1,
        createdAt: now,
      }),
    );
    await h.service.store.runs.insert(
      runRecord({
        runId: 'run-other-workspace',
        threadKey: 'slack:T0OTHER01:C0THEIRS:1700000002.000200',
        title: 'the other workspace plans',
        costUsd: 7,
        createdAt: now,
      }),
    );
    h.idp.signInAs.slack = { team: 'T0000001', user: 'U0VIEWER3', name: 'Val Viewer' };
    const slackViewer = cookieOf(await signInWith('slack'))!;
    const list = await (await h.get('/console', slackViewer)).text();
    expect(list).toContain('data-run="run-own-open"');
    expect(list).not.toContain('run-other-workspace');
    expect(list).not.toContain('other workspace plans');
    expect((await h.get('/console/runs/run-other-workspace', slackViewer)).status).toBe(404);
    const places = await (await h.get('/console/places', slackViewer)).text();
    expect(places).not.toContain('T0OTHER01');

    h.idp.signInAs.github = {
      ...h.idp.signInAs.github,
      login: 'octo-viewer',
      id: 777001,
      orgs: ['acme'],
    };
    const githubViewer = cookieOf(await signInWith('github'))!;
    const seen = await (await h.get('/console', githubViewer)).text();
    expect(seen).not.toContain('run-own-open');
    expect((await h.get('/console/runs/run-own-open', githubViewer)).status).toBe(404);
    expect(await (await h.get('/console/places', githubViewer)).text()).not.toContain('C0OWNOPEN');
    // The operator still sees every tenant.
    expect(await (await h.get('/console', admin)).text()).toContain('run-other-workspace');
  });

  it('a guest of an allowed workspace is never let in', async () => {
    h.slack.guests.add('U0GUEST');
    h.idp.signInAs.slack = { team: 'T0000001', user: 'U0GUEST', name: 'Gus Guest' };
    const res = await signInWith('slack');
    expect(res.status).toBe(403);
    expect(cookieOf(res)).toBeUndefined();
  });

  it('GitHub: an account id in CONSOLE_GITHUB_USERS is an operator; a reclaimed login is not', async () => {
    await withOtherConsole({ CONSOLE_GITHUB_USERS: 'trusted-login,424242' }, async (other) => {
      other.idp.signInAs.github = { login: 'renamed-since', name: 'By Id', orgs: [], id: 424242 };
      const byId = await signInWith('github', other);
      expect(byId.status).toBe(303);
      other.idp.signInAs.github = { login: 'trusted-login', name: 'First', orgs: [], id: 101 };
      expect((await signInWith('github', other)).status).toBe(303);
      // The first owner renamed; someone else registered the freed login.
      other.idp.signInAs.github = { login: 'trusted-login', name: 'Squatter', orgs: [], id: 202 };
      const squatter = await signInWith('github', other);
      expect(squatter.status).toBe(403);
      expect(cookieOf(squatter)).toBeUndefined();
    });
  });
});

describe('sessions', () => {
  it('sign-out ends the session on the server: the same cookie no longer works', async () => {
    h.idp.signInAs.slack = { team: 'T0000001', user: 'U0OLIVIA', name: 'Olivia' };
    const cookie = cookieOf(await signInWith('slack'))!;
    const page = await (await h.get('/console', cookie)).text();
    const out = await h.post(
      '/console/signout',
      new URLSearchParams({ csrf: csrfOf(page) }).toString(),
      cookie,
    );
    expect(out.status).toBe(303);
    const replay = await h.get('/console', cookie);
    expect(replay.status).toBe(303);
    expect(replay.headers.get('location')).toMatch(/^\/console\/signin/);
  });

  it('removal from the list ends a session at its next request (restart on the same database)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-console-sessions-'));
    const env = {
      DATABASE_URL: join(dir, 'relay.db'),
      CONSOLE_SESSION_SECRET: 'a-session-secret-shared-by-both-0123456789',
    };
    try {
      const cookie = await withOtherConsole(
        { ...env, CONSOLE_SLACK_USERS: 'U0OLIVIA' },
        async (first) => {
          first.idp.signInAs.slack = { team: 'T0000001', user: 'U0OLIVIA', name: 'Olivia' };
          const signedIn = cookieOf(await signInWith('slack', first))!;
          expect((await first.get('/console/queues', signedIn)).status).toBe(200);
          return signedIn;
        },
      );
      await withOtherConsole({ ...env, CONSOLE_SLACK_USERS: 'U0SOMEONE' }, async (second) => {
        const res = await second.get('/console/queues', cookie);
        expect(res.status).toBe(303);
        expect(res.headers.get('location')).toMatch(/^\/console\/signin/);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a sign-in state is good once: a second code brought back with it is refused', async () => {
    h.idp.signInAs.slack = { team: 'T0000001', user: 'U0OLIVIA', name: 'Olivia' };
    const start = await h.get('/console/signin/slack');
    const stateCookie = cookieOf(start, 'relay_console_signin')!;
    const authorize = start.headers.get('location')!;
    const callback = async () => {
      const back = new URL(
        (await fetch(authorize, { redirect: 'manual' })).headers.get('location')!,
      );
      return h.get(back.pathname + back.search, stateCookie);
    };
    expect((await callback()).status).toBe(303);
    const again = await callback();
    expect(again.status).toBe(400);
    expect(cookieOf(again)).toBeUndefined();
  });
});

describe('the console body bound', () => {
  it('a 200 KiB form is refused with 413 before it is read', async () => {
    const res = await h.post('/console/actions', `csrf=${'x'.repeat(200 * 1024)}`, admin);
    expect(res.status).toBe(413);
  });
});
