/**
 * The console's trust boundaries, attacked over plain HTTP against the running service: the
 * admin link through any proxy and after it expired, malformed input, the headers of every
 * HTML page, and the body bound of its forms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieOf, csrfOf, signInLocally, startConsoleHarness } from './console-harness.js';
import type { ConsoleHarness } from './console-harness.js';

let h: ConsoleHarness;
let base: string;
/** The local admin's session (an operator). */
let admin: string;
beforeAll(async () => {
  h = await startConsoleHarness();
  base = h.service.url;
  admin = await signInLocally(h.service);
});
afterAll(() => h.close());

const get = (path: string, cookie?: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, {
    redirect: 'manual',
    headers: { ...(cookie ? { cookie } : {}), ...headers },
  });
const post = (path: string, form: string, cookie?: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(cookie ? { cookie } : {}),
      ...headers,
    },
    body: form,
  });

describe('the one-time admin link', () => {
  it('is refused when the request came through any proxy, and still works directly', async () => {
    const other = await startConsoleHarness();
    try {
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
    } finally {
      await other.close();
    }
  });

  it('is refused once its minutes have passed, even unused', async () => {
    let offset = 0;
    const other = await startConsoleHarness(
      { CONSOLE_ADMIN_LINK_MINUTES: '15' },
      { clock: { now: () => Date.now() + offset } },
    );
    try {
      offset = 15 * 60_000 + 1_000;
      const late = await fetch(other.service.console!.adminLink!, { redirect: 'manual' });
      expect(late.status).toBe(403);
      expect(cookieOf(late)).toBeUndefined();
      expect(await late.text()).toContain('expired');
    } finally {
      await other.close();
    }
  });
});

describe('malformed console input', () => {
  it('a run id that does not decode gets 400, not 500', async () => {
    const res = await get('/console/runs/%E0%A4%A', admin);
    expect(res.status).toBe(400);
    expect(await res.text()).not.toMatch(/at .*\.ts:\d+|Error:/);
  });

  it.each([
    ['a character no Location header may carry', '/console/\u0100'],
    ['a control character', '/console/\u0000x'],
    ['another site', '//evil.example/console'],
    ['a backslash', '/console\\..\\evil'],
  ])('a back= value with %s gets 400, and nothing is done', async (_what, back) => {
    const page = await (await get('/console/queues', admin)).text();
    const form = new URLSearchParams({
      kind: 'notification',
      id: '999999',
      action: 'discard',
      csrf: csrfOf(page),
      back,
    });
    const res = await post('/console/actions', form.toString(), admin);
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });
});
