/**
 * Superseded reactions come off by the id GitHub gave when the relay added them, whatever
 * identity the auth posts as: a plain token's user as much as an App's bot, and after a
 * restart (the ids are in the store, not in memory).
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testGitHubNotifier } from '../test-notifier.js';
import type { GitHubAuth } from '../../../src/github/api/github-client.js';
import { startFakeGitHub, type FakeGitHub } from '../../../src/fakes/github-rest-api.js';
import { openStore, type OpenedStore } from '../../../src/store/index.js';

const APP_ID = 515151;
const ISSUE = 'github:octo-org/widgets#42';
const where = { owner: 'octo-org', repo: 'widgets' };
const keys = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
});

const open: { api?: FakeGitHub; store?: OpenedStore; dir?: string } = {};
afterEach(async () => {
  await open.api?.close();
  await open.store?.close();
  if (open.dir) rmSync(open.dir, { recursive: true, force: true });
});

const AUTHS: { name: string; fake: Parameters<typeof startFakeGitHub>[0]; auth: GitHubAuth }[] = [
  {
    name: 'a plain token',
    fake: { token: 'ghp_plain' },
    auth: { kind: 'token', token: 'ghp_plain' },
  },
  {
    name: 'App auth',
    fake: { app: { appId: APP_ID, publicKey: keys.publicKey } },
    auth: { kind: 'app', appId: APP_ID, privateKey: keys.privateKey },
  },
];

describe.each(AUTHS)('reactions taken off by recorded id, with $name', ({ fake, auth }) => {
  async function setup() {
    open.dir = mkdtempSync(join(tmpdir(), 'relay-reaction-ids-'));
    open.store = await openStore({ databaseUrl: `sqlite:${join(open.dir, 'relay.db')}` });
    open.api = await startFakeGitHub(fake);
    open.api.setInstallation('octo-org', 'widgets', 11);
    const notifier = () =>
      testGitHubNotifier(open.api!.url, auth, { reactionIds: open.store!.reactionIds! });
    return { api: open.api, notifier };
  }

  it('a state change replaces the superseded reaction, also after a restart', async () => {
    const { api, notifier } = await setup();
    const comment = { threadKey: ISSUE, id: 'issue:1001' };
    await notifier().react(comment, 'seen');
    expect(api.reactionsNow('issue_comment', 1001, where)).toEqual(['eyes']);
    // A new process: only the store knows the id of the 👀 it added.
    await notifier().react(comment, 'succeeded', { replaces: ['seen'] });
    expect(api.reactionsNow('issue_comment', 1001, where)).toEqual(['rocket']);
    const deletes = api.requests.filter((r) => r.method === 'DELETE');
    expect(deletes.map((r) => r.path)).toEqual([
      expect.stringMatching(/^\/repos\/octo-org\/widgets\/issues\/comments\/1001\/reactions\/\d+$/),
    ]);
    // Deleted by id: no listing of who reacted.
    expect(api.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/reactions'))).toEqual(
      [],
    );
  });

  it('on an issue body and by unreact too; a reaction already gone is no error', async () => {
    const { api, notifier } = await setup();
    const body = { threadKey: ISSUE, id: 'issue-body:42' };
    const relay = notifier();
    await relay.react(body, 'seen');
    await relay.react(body, 'failed', { replaces: ['seen'] });
    expect(api.reactionsNow('issue', 42, where)).toEqual(['confused']);
    // Someone took the 😕 off by hand: taking it off again is done, not a failure.
    const header = { authorization: authHeader(api, auth) };
    const path = `${api.url}/repos/octo-org/widgets/issues/42/reactions`;
    const listed = (await (
      await fetch(`${path}?content=confused`, { headers: header })
    ).json()) as {
      id: number;
    }[];
    const gone = await fetch(`${path}/${listed[0]!.id}`, { method: 'DELETE', headers: header });
    expect(gone.status).toBe(204);
    await relay.unreact!(body, ['failed']);
    expect(api.reactionsNow('issue', 42, where)).toEqual([]);
  });
});

/** The credential the relay used, for a person acting by hand in the test. */
function authHeader(api: FakeGitHub, auth: GitHubAuth): string {
  if (auth.kind === 'token') return `token ${auth.token}`;
  return `token ${api.tokenRequests.at(-1)!.token}`;
}
