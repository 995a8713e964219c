/**
 * The notifier's check runs against the fake GitHub: one per run even across a restart (found
 * again by its external_id on the commit), none on an issue, and an App without
 * `checks: write` is asked once, then left alone for a while, without failing a message.
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { runStatusMessage } from '../../../src/core/message/render-model.js';
import { toRunView } from '../../../src/core/message/run-view.js';
import { testGitHubNotifier } from '../test-notifier.js';
import {
  DEFAULT_INSTALLATION_PERMISSIONS,
  startFakeGitHub,
  type FakeGitHub,
} from '../../../src/fakes/github-rest-api.js';

const APP_ID = 616161;
const keys = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
});

let api: FakeGitHub | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function fake(permissions: Record<string, string>) {
  api = await startFakeGitHub({ app: { appId: APP_ID, publicKey: keys.publicKey }, permissions });
  api.setInstallation('octo-org', 'widgets', 11);
  api.setPullRequest('octo-org', 'widgets', 7, { head: 'feature', base: 'main', sha: 'beef01' });
  return api;
}

const notifier = (url: string) =>
  testGitHubNotifier(url, { kind: 'app', appId: APP_ID, privateKey: keys.privateKey });

function status(state: string) {
  return runStatusMessage(
    toRunView({
      run: {
        run_id: 'run_42',
        title: 'Fix the parser',
        prompt: 'p',
        state,
        created_at: '2026-03-02T10:00:00Z',
        updated_at: '2026-03-02T10:00:00Z',
        session_link: 'https://agents.example.com/s/42',
      },
      record: { requester: { platform: 'github', id: 'alice' } },
      now: Date.parse('2026-03-02T10:01:00Z'),
    }),
  );
}

const checkRunWrites = (a: FakeGitHub, method: string) =>
  a.requests.filter((r) => r.method === method && /\/check-runs(\/\d+)?$/.test(r.path)).length;

describe('GitHub notifier: check runs', () => {
  it('one check run per run, found again after a restart instead of created twice', async () => {
    const a = await fake({ ...DEFAULT_INSTALLATION_PERMISSIONS, checks: 'write' });
    const first = notifier(a.url);
    const { ref } = await first.post(
      { threadKey: 'github:octo-org/widgets#7' },
      status('INPROGRESS'),
    );
    expect(checkRunWrites(a, 'POST')).toBe(1);
    // The same view again writes nothing.
    await first.update(ref, status('INPROGRESS'));
    expect(checkRunWrites(a, 'PATCH')).toBe(0);
    const restarted = notifier(a.url);
    await restarted.update(ref, status('SUCCEEDED'));
    expect(checkRunWrites(a, 'POST')).toBe(1);
    const [check] = a.checkRunsOn('octo-org', 'widgets', 7);
    expect(a.checkRuns.size).toBe(1);
    expect(check).toMatchObject({ status: 'completed', conclusion: 'success', headSha: 'beef01' });
  });

  it('none on an issue', async () => {
    const a = await fake({ ...DEFAULT_INSTALLATION_PERMISSIONS, checks: 'write' });
    const n = notifier(a.url);
    const { ref } = await n.post({ threadKey: 'github:octo-org/widgets#42' }, status('INPROGRESS'));
    await n.update(ref, status('SUCCEEDED'));
    expect(a.checkRuns.size).toBe(0);
    // Found out once: the second write does not ask for the pull request again.
    expect(a.requests.filter((r) => r.path.endsWith('/pulls/42'))).toHaveLength(1);
  });

  it('an App without checks:write: the comments go out, no check-run request is made', async () => {
    const a = await fake({ ...DEFAULT_INSTALLATION_PERMISSIONS });
    const n = notifier(a.url);
    const { ref } = await n.post({ threadKey: 'github:octo-org/widgets#7' }, status('INPROGRESS'));
    await n.update(ref, status('SUCCEEDED'));
    expect(a.commentsOn('octo-org', 'widgets', 7).at(-1)?.edits).toHaveLength(1);
    expect(a.requests.filter((r) => r.path.includes('check-runs'))).toEqual([]);
    expect(a.checkRuns.size).toBe(0);
  });
});
