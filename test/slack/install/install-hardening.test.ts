/**
 * The OAuth install pages attacked: a workspace named to inject markup is echoed as text
 * under a policy that runs no script, and an install `state` (with its cookie) is good once.
 */
import { describe, expect, it } from 'vitest';
import { captureLogs } from '../../helpers/log-capture.js';
import { CLIENT, fakeWorkspace, workspacesPerTest } from './workspace-harness.js';

const HOSTILE = fakeWorkspace(
  'THOSTILE1',
  '<script>alert(document.cookie)</script><img src=x onerror=alert(1)>',
  'hostile',
  'HOST1',
);
const OTHER = fakeWorkspace('TOTHER001', 'Other', 'other', 'OTH01');

const open = workspacesPerTest();

function expectHardened(res: Response): void {
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("default-src 'none'");
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
}

describe('the install pages', () => {
  it('echo a hostile workspace name as text, under a no-script policy', async () => {
    const w = await open([HOSTILE]);
    const page = await fetch(`${w.service.url}/slack/install`);
    expectHardened(page);
    await page.text();
    const done = await w.install('code-hostile');
    expect(done.status).toBe(200);
    expectHardened(done);
    const html = await done.text();
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(document.cookie)&lt;/script&gt;');
  });

  it('accept an install state once: a replay with another code installs nothing', async () => {
    const w = await open([HOSTILE, OTHER]);
    const page = await fetch(`${w.service.url}/slack/install`);
    const cookie = page.headers.get('set-cookie')?.split(';')[0] ?? '';
    const state = /[?&;]state=([^"&]+)/.exec(await page.text())?.[1] ?? '';
    const redirect = (code: string) =>
      fetch(`${w.service.url}/slack/oauth_redirect?code=${code}&state=${state}`, {
        headers: { cookie },
      });
    expect((await redirect('code-hostile')).status).toBe(200);
    const replay = await redirect('code-other');
    expect(replay.status).toBe(400);
    expect(w.api.okCallsTo('oauth.v2.access')).toHaveLength(1);
    expect(await w.service.store.installations.count('slack')).toBe(1);
  });
});

describe('an install at LOG_LEVEL=debug', () => {
  it('logs neither the client secret, the OAuth code, the state nor the token', async () => {
    const logs = captureLogs();
    const w = await open([HOSTILE], {}, { logger: logs.logger });
    const page = await fetch(`${w.service.url}/slack/install`);
    const state = /[?&;]state=([^"&]+)/.exec(await page.text())?.[1] ?? '';
    expect((await w.install('code-hostile')).status).toBe(200);
    const text = logs.text();
    // The OAuth library did log the exchange at debug, only without its values.
    expect(text).toContain('oauth.v2.access');
    expect(text).not.toContain(CLIENT.secret);
    expect(text).not.toContain('code-hostile');
    expect(text).not.toContain('xoxb-hostile-dummy');
    expect(state.length).toBeGreaterThan(20);
    expect(text).not.toContain(decodeURIComponent(state).slice(0, 40));
  });
});
