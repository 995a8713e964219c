import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { DeliveryError } from '../../../src/core/ports/index.js';
import { createGitHubNotifier, type GitHubNotifier } from '../../../src/github/notify/notifier.js';
import { startFakeGitHub, type FakeGitHub } from '../../../src/fakes/github-rest-api.js';
import { sampleRun } from '../models.js';
import { createRecordingLogger } from '../../helpers/test-logger.js';

const APP_ID = 424242;
const ISSUE = 'github:octo-org/widgets#42';
const OTHER = 'github:octo-org/gadgets#3';
const status = { type: 'run_status', run: sampleRun('QUEUED') } as const;

// One key pair per file: RSA generation takes a moment.
const pkcs1 = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, // GitHub's download format
});

let api: FakeGitHub | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function setup(options: { privateKey?: string; tokenTtlMs?: number } = {}) {
  let now = Date.now();
  const clock = { now: () => now, advance: (ms: number) => (now += ms) };
  api = await startFakeGitHub({
    app: { appId: APP_ID, publicKey: pkcs1.publicKey },
    now: clock.now,
    tokenTtlMs: options.tokenTtlMs,
  });
  api.setInstallation('octo-org', 'widgets', 11);
  api.setInstallation('octo-org', 'gadgets', 22);
  const notifier: GitHubNotifier = createGitHubNotifier({
    auth: { kind: 'app', appId: APP_ID, privateKey: options.privateKey ?? pkcs1.privateKey },
    apiUrl: api.url,
    logger: createRecordingLogger(),
    clock,
    minWriteIntervalMs: 0,
    retryBaseMs: 5,
  });
  return { api, notifier, clock };
}

describe('GitHub App auth', () => {
  it('mints an installation token once and reuses it (verified against the fake API)', async () => {
    const { api, notifier } = await setup();
    const { ref } = await notifier.post({ threadKey: ISSUE }, status);
    await notifier.update(ref, { type: 'run_status', run: sampleRun('INPROGRESS') });
    await notifier.react({ threadKey: ISSUE, id: 'issue:1001' }, 'seen');
    expect(api.installationLookups).toEqual(['octo-org/widgets']);
    expect(api.tokenRequests).toEqual([{ installationId: 11, token: 'ghs_fake_11_1' }]);
    const writes = api.requests.filter((r) => r.path.startsWith('/repos/octo-org/widgets/issues'));
    expect(writes).toHaveLength(3);
    expect(writes.every((r) => r.authorization === 'token ghs_fake_11_1')).toBe(true);
    // The JWT went only to the App routes.
    const jwtCalls = api.requests.filter((r) => r.authorization?.startsWith('bearer '));
    expect(jwtCalls.map((r) => r.path)).toEqual([
      '/repos/octo-org/widgets/installation',
      '/app/installations/11/access_tokens',
    ]);
    expect(notifier.clients.tokenCache?.size()).toBe(1);
  });

  it('one token per installation', async () => {
    const { api, notifier } = await setup();
    await notifier.post({ threadKey: ISSUE }, status);
    await notifier.post({ threadKey: OTHER }, status);
    await notifier.post({ threadKey: OTHER }, status);
    expect(api.tokenRequests.map((t) => t.installationId)).toEqual([11, 22]);
  });

  it('an installation id learned from a webhook saves the lookup', async () => {
    const { api, notifier } = await setup();
    notifier.learnInstallation('octo-org', 'widgets', 11);
    await notifier.post({ threadKey: ISSUE }, status);
    expect(api.installationLookups).toEqual([]);
    expect(api.tokenRequests).toHaveLength(1);
  });

  // GitHub: an installation access token expires an hour after it is made, and an expired one
  // answers 401 (https://docs.github.com/en/apps/creating-github-apps/authenticating-with-a-github-app/generating-an-installation-access-token-for-a-github-app).
  it('the fake holds an installation token to its documented hour', async () => {
    const { api, notifier, clock } = await setup();
    await notifier.post({ threadKey: ISSUE }, status);
    const comment = () =>
      fetch(`${api.url}/repos/octo-org/widgets/issues/42/comments`, {
        method: 'POST',
        headers: { authorization: 'token ghs_fake_11_1', 'content-type': 'application/json' },
        body: JSON.stringify({ body: 'still mine?' }),
      });
    clock.advance(59 * 60_000);
    expect((await comment()).status).toBe(201);
    clock.advance(60_000);
    expect((await comment()).status).toBe(401);
  });

  it('a token is minted again shortly before it expires', async () => {
    const { api, notifier, clock } = await setup();
    await notifier.post({ threadKey: ISSUE }, status);
    clock.advance(50 * 60_000);
    await notifier.post({ threadKey: ISSUE }, status);
    expect(api.tokenRequests).toHaveLength(1);
    clock.advance(6 * 60_000); // 56 min: within 5 min of the 60 min expiry
    await notifier.post({ threadKey: ISSUE }, status);
    expect(api.tokenRequests.map((t) => t.token)).toEqual(['ghs_fake_11_1', 'ghs_fake_11_2']);
  });

  it('also accepts a PKCS#8 key', async () => {
    const pkcs8 = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    let now = Date.now();
    api = await startFakeGitHub({
      app: { appId: APP_ID, publicKey: pkcs8.publicKey },
      now: () => now++,
    });
    api.setInstallation('octo-org', 'widgets', 11);
    const notifier = createGitHubNotifier({
      auth: { kind: 'app', appId: String(APP_ID), privateKey: pkcs8.privateKey },
      apiUrl: api.url,
      logger: createRecordingLogger(),
      minWriteIntervalMs: 0,
    });
    await notifier.post({ threadKey: ISSUE }, status);
    expect(api.comments.size).toBe(1);
  });

  it('a key GitHub does not know -> forbidden, nothing posted', async () => {
    const stranger = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    });
    const { api, notifier } = await setup({ privateKey: stranger.privateKey });
    const err = await notifier.post({ threadKey: ISSUE }, status).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeliveryError);
    expect(err).toMatchObject({ code: 'forbidden', retryable: false });
    expect(api.comments.size).toBe(0);
  });

  it('a repository without the App installed -> not_found; looked up again next time', async () => {
    const { api, notifier } = await setup();
    const err = await notifier
      .post({ threadKey: 'github:someone/else#1' }, status)
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'not_found', retryable: false });
    api.setInstallation('someone', 'else', 33);
    await notifier.post({ threadKey: 'github:someone/else#1' }, status);
    expect(api.installationLookups).toEqual(['someone/else', 'someone/else']);
  });
});
