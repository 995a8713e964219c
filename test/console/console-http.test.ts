/**
 * The console over plain HTTP: nothing without a session, the one-time local admin link
 * (loopback only, once), Sign in with Slack and with GitHub against the fake providers
 * (allowed and refused), CSRF on the actions, Retry/Discard logged and counted, the state
 * history, and the queue gauges.
 */
import { describe, expect, it } from 'vitest';
import { isLoopbackPeer } from '../../src/console/local-admin.js';
import type { IncomingMessage } from 'node:http';
import {
  CLIENTS,
  cookieOf,
  csrfOf,
  parkNotification,
  runRecord,
  signInLocally,
  signInThrough,
  startConsoleHarness,
  consolePerFile,
  withOtherConsole,
} from './console-harness.js';
import { waitUntil } from '../helpers/wait-until.js';
import { postSlack, slashCommandBody } from '../helpers/slack.js';

const h = consolePerFile();

/** A sign-in through the fake provider that asks to land on the queues. */
const signInWith = (provider: 'slack' | 'github') => signInThrough(h, provider, '/console/queues');

const parkedNotification = (text: string) =>
  parkNotification(h, 'slack:T0000001:C0HTTP:1700000000.000100', text);

describe('the console without a session', () => {
  it('sends pages to sign-in and refuses the event stream and the actions', async () => {
    const page = await h.get('/console/runs/anything');
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/console/signin?next=%2Fconsole%2Fruns%2Fanything');
    expect((await h.get('/console/events')).status).toBe(401);
    expect(
      (await h.post('/console/actions', { kind: 'notification', id: '1', action: 'retry' })).status,
    ).toBe(401);
    const forged = 'relay_console=eyJzZXNzaW9uIjp7fX0.forged';
    expect((await h.get('/console', forged)).status).toBe(303);
    const signin = await h.get('/console/signin');
    expect(signin.status).toBe(200);
    const text = await signin.text();
    expect(text).toContain('Sign in with Slack');
    expect(text).toContain('Sign in with GitHub');
    expect(signin.headers.get('content-security-policy')).toContain("script-src 'self'");
  });
});

describe('the local admin link', () => {
  it('is refused through a proxy and from another machine, and works once', async () => {
    const link = h.service.console!.adminLink!;
    const viaProxy = await fetch(link, {
      redirect: 'manual',
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(viaProxy.status).toBe(403);
    expect(cookieOf(viaProxy)).toBeUndefined();
    const token = link.split('/').at(-1)!;
    expect(link).toBe(`${h.service.url}/console/signin/local/${token}`);
    for (const wrongLink of [
      link.replace(token, 'not-the-token'),
      `${h.service.url}/console/signin/local?token=not-the-token`,
      `${h.service.url}/console/signin/local`,
    ]) {
      const wrong = await fetch(wrongLink, { redirect: 'manual' });
      expect(wrong.status, wrongLink).toBe(403);
    }

    const first = await fetch(link, { redirect: 'manual' });
    expect(first.status).toBe(303);
    const cookie = cookieOf(first)!;
    expect(first.headers.getSetCookie().join('\n')).toMatch(/HttpOnly; SameSite=Lax/);
    expect((await h.get('/console', cookie)).status).toBe(200);

    const again = await fetch(link, { redirect: 'manual' });
    expect(again.status).toBe(403);
    expect(await again.text()).toContain('already used');
    // The older form, with the token as a parameter, names the same one-time value.
    const older = await fetch(`${h.service.url}/console/signin/local?token=${token}`, {
      redirect: 'manual',
    });
    expect(await older.text()).toContain('already used');
  });

  it('counts only loopback peers as this machine', () => {
    const peer = (remoteAddress: string, headers: Record<string, string> = {}) =>
      ({ socket: { remoteAddress }, headers }) as unknown as IncomingMessage;
    expect(isLoopbackPeer(peer('127.0.0.1'))).toBe(true);
    expect(isLoopbackPeer(peer('::1'))).toBe(true);
    expect(isLoopbackPeer(peer('::ffff:127.0.0.1'))).toBe(true);
    expect(isLoopbackPeer(peer('10.1.2.3'))).toBe(false);
    expect(isLoopbackPeer(peer('::ffff:192.0.2.1'))).toBe(false);
    expect(isLoopbackPeer(peer('127.0.0.1', { forwarded: 'for=198.51.100.1' }))).toBe(false);
  });
});

describe('Sign in with Slack and with GitHub', () => {
  it('lets in a member of an allowed workspace, and not one of another', async () => {
    h.idp.signInAs.slack = { team: 'T0000001', user: 'U0OLIVIA', name: 'Olivia' };
    const ok = await signInWith('slack');
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/console/queues');
    const page = await h.get('/console/queues', cookieOf(ok));
    expect(await page.text()).toContain('Olivia (slack)');

    h.idp.signInAs.slack = { team: 'T0OTHER', user: 'U0MALLORY', name: 'Mallory' };
    const refused = await signInWith('slack');
    expect(refused.status).toBe(403);
    expect(cookieOf(refused)).toBeUndefined();
  });

  it('lets in an allowed organization member or login, and not others', async () => {
    h.idp.signInAs.github = { login: 'someone', name: 'Some One', orgs: ['acme'] };
    expect((await signInWith('github')).status).toBe(303);
    h.idp.signInAs.github = { login: 'trusted-login', name: 'Trusted', orgs: [] };
    expect((await signInWith('github')).status).toBe(303);
    h.idp.signInAs.github = { login: 'outsider', name: 'Outsider', orgs: ['elsewhere'] };
    const refused = await signInWith('github');
    expect(refused.status).toBe(403);
    expect(cookieOf(refused)).toBeUndefined();
  });

  it('refuses a callback that this browser did not start', async () => {
    const start = await h.get('/console/signin/slack');
    const atProvider = await fetch(start.headers.get('location')!, { redirect: 'manual' });
    const back = new URL(atProvider.headers.get('location')!);
    // No sign-in cookie: a code planted from another site.
    const planted = await h.get(back.pathname + back.search);
    expect(planted.status).toBe(400);
    expect(cookieOf(planted)).toBeUndefined();
  });
});

describe('Retry and Discard', () => {
  it('needs the CSRF token and a same-origin request, and is logged with who did it', async () => {
    const cookie = await (async () => {
      h.idp.signInAs.slack = { team: 'T0000001', user: 'U0OLIVIA', name: 'Olivia' };
      return cookieOf(await signInWith('slack'))!;
    })();
    const id = await parkedNotification('needs a retry');
    const page = await (await h.get('/console/queues', cookie)).text();
    expect(page).toContain(`data-notification="${id}"`);
    const csrf = csrfOf(page);
    const form = { kind: 'notification', id: String(id), action: 'retry', back: '/console/queues' };

    expect((await h.post('/console/actions', form, cookie)).status).toBe(403);
    expect(
      (await h.post('/console/actions', { ...form, csrf: 'x'.repeat(43) }, cookie)).status,
    ).toBe(403);
    expect(
      (
        await h.post('/console/actions', { ...form, csrf }, cookie, {
          origin: 'https://evil.example',
        })
      ).status,
    ).toBe(403);
    expect(
      (await h.service.store.outboxQueue.list({ status: 'parked' })).some((n) => n.id === id),
    ).toBe(true);

    const done = await h.post('/console/actions', { ...form, csrf }, cookie, {
      origin: h.service.url,
    });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/console/queues');
    await waitUntil(
      async () =>
        (await h.service.store.outboxQueue.list({ status: 'delivered' })).some((n) => n.id === id),
      { timeoutMs: 15_000 },
    );
    expect(h.slack.messages.some((m) => m.text?.includes('needs a retry'))).toBe(true);
    const audit = h.logger.lines.find((l) =>
      l.msg?.startsWith(`console: retry of notification ${id}`),
    );
    expect(audit).toMatchObject({
      level: 'info',
      msg: `console: retry of notification ${id} by Olivia`,
      obj: {
        operator: 'slack:T0000001/U0OLIVIA',
        action: 'retry',
        kind: 'notification',
        itemId: id,
        done: true,
      },
    });
    // The refused attempts changed nothing and were logged as refusals.
    expect(h.logger.lines.filter((l) => l.msg?.includes('CSRF check failed')).length).toBe(3);
    const metrics = await (await fetch(`${h.service.url}/metrics`)).text();
    expect(metrics).toMatch(
      /agent_relay_console_actions_total\{kind="retry_notification",outcome="done"\} 1/,
    );
  });

  it('discards a parked notification, and a second discard finds nothing', async () => {
    const cookie = await signInWith('slack').then((r) => cookieOf(r)!);
    const id = await parkedNotification('to be discarded');
    await waitUntil(async () =>
      /^agent_relay_outbox_parked 1$/m.test(await (await fetch(`${h.service.url}/metrics`)).text()),
    );
    const csrf = csrfOf(await (await h.get('/console/queues', cookie)).text());
    const form = { kind: 'notification', id: String(id), action: 'discard', csrf };
    expect((await h.post('/console/actions', form, cookie)).status).toBe(303);
    expect((await h.service.store.outboxQueue.list()).some((n) => n.id === id)).toBe(false);
    expect((await h.post('/console/actions', form, cookie)).status).toBe(303);
    // The gauges share one store read per half second (one scrape reads four of them).
    let metrics = '';
    await waitUntil(async () => {
      metrics = await (await fetch(`${h.service.url}/metrics`)).text();
      return /^agent_relay_outbox_parked 0$/m.test(metrics);
    });
    expect(metrics).toMatch(/kind="discard_notification",outcome="gone"\} 1/);
  });

  it('hands a failed trigger to the inbox again, which carries it out', async () => {
    const cookie = await signInWith('slack').then((r) => cookieOf(r)!);
    const store = h.service.store;
    const threadKey = 'slack:T0000001:C0RETRY:1700000003.000300';
    // Stored not yet due (so no worker takes it first), then failed as a worker would.
    await store.inbox.add(
      {
        platform: 'slack',
        kind: 'mention',
        threadKey,
        actor: { id: 'U0DANA', name: 'Dana' },
        text: 'write the changelog',
        addressed: true,
        context: {},
        deliveryId: 'Ev-console-retry',
        receivedAt: new Date().toISOString(),
        settingsScope: 'slack:T0000001:C0RETRY',
        triggerMessage: { threadKey, id: 'C0RETRY:1700000003.000300' },
      },
      Date.now() + 3_600_000,
    );
    const [item] = (await store.operator!.threadItems([threadKey], 5)).triggers;
    await store.inbox.fail(item!.id, 'the service was unavailable', Date.now());
    expect(await store.runs.listByThread(threadKey, 5)).toEqual([]);

    const page = await (await h.get('/console/queues', cookie)).text();
    expect(page).toContain(`data-trigger="${item!.id}" data-status="failed"`);
    const form = { kind: 'trigger', id: String(item!.id), action: 'retry', csrf: csrfOf(page) };
    expect((await h.post('/console/actions', form, cookie)).status).toBe(303);
    const [run] = await waitUntil(
      async () => {
        const runs = await store.runs.listByThread(threadKey, 5);
        return runs.length > 0 ? runs : undefined;
      },
      { timeoutMs: 15_000 },
    );
    expect(run).toMatchObject({ requester: { id: 'U0DANA' } });
    expect((await store.inbox.get(item!.id))?.status).toBe('done');
  });

  it('refuses a session signed with another key', async () => {
    await withOtherConsole({}, async (other) => {
      const foreign = await signInLocally(other.service);
      expect((await h.get('/console', foreign)).status).toBe(303);
    });
  });
});

describe('a run page', () => {
  it('shows the state history the store recorded and the thread', async () => {
    const cookie = await signInWith('slack').then((r) => cookieOf(r)!);
    const store = h.service.store;
    const run = runRecord({
      runId: 'run-history-1',
      threadKey: 'github:acme/app#12',
      state: 'QUEUED',
      applied: [
        { key: 'model', value: 'fast', source: 'inline' },
        { key: 'env', source: 'service' },
      ],
    });
    await store.runs.insert(run);
    await store.runs.update(run.runId, { state: 'INPROGRESS', updatedAt: run.createdAt + 1000 });
    await store.runs.update(run.runId, { state: 'INPROGRESS', updatedAt: run.createdAt + 2000 });
    await store.runs.update(run.runId, { state: 'SUCCEEDED', updatedAt: run.createdAt + 3000 });
    expect((await store.operator!.stateHistory(run.runId)).map((s) => s.state)).toEqual([
      'QUEUED',
      'INPROGRESS',
      'SUCCEEDED',
    ]);
    const page = await (await h.get(`/console/runs/${run.runId}`, cookie)).text();
    expect(page).toContain(`${h.idp.url}/acme/app/issues/12`);
    expect(page.match(/data-state="(\w+)"/g)).toEqual([
      'data-state="SUCCEEDED"',
      'data-state="QUEUED"',
      'data-state="INPROGRESS"',
      'data-state="SUCCEEDED"',
    ]);
    // What the service chose reads as words, not `env= (service)`.
    expect(page).toContain('model=fast (inline), env: service default');
    // To the second, with how long each state lasted (the ended one: nothing to count).
    const history = page.slice(page.indexOf('State history'));
    const lasted = [...history.matchAll(/<td data-label="For">\s*([^<]*?)\s*<\/td>/g)].map(
      (m) => m[1],
    );
    expect(lasted).toEqual(['1s', '2s', '–']);
    expect(history).toMatch(
      /<time datetime="[^"]+" title="[^"]+">\d{4}-\d\d-\d\d \d\d:\d\d:\d\d<\/time>/,
    );
    const filtered = await (await h.get('/console?platform=github&person=alice', cookie)).text();
    expect(filtered).toContain('data-run="run-history-1"');
    const none = await (await h.get('/console?platform=slack&place=github:acme', cookie)).text();
    expect(none).not.toContain('data-run="run-history-1"');
  });
});

/** Parked as the worker parks: queued not yet due (no worker takes it first), then given up. */
async function parkDirectly(threadKey: string, error: string, text: string): Promise<number> {
  const store = h.service.store;
  const id = await store.outbox.enqueue(
    {
      kind: 'post',
      destination: { threadKey },
      message: { type: 'notice', tone: 'info', text },
    },
    Date.now() + 3_600_000,
  );
  await store.outboxQueue.park(id, error, Date.now());
  return id;
}

describe('parked notifications by cause and place', () => {
  it('groups them, retries a group, and discards one only after saying what will happen', async () => {
    h.idp.signInAs.slack = { team: 'T0000001', user: 'U0OLIVIA', name: 'Olivia' };
    const cookie = await signInWith('slack').then((r) => cookieOf(r)!);
    const store = h.service.store;
    // One channel the bot was removed from: five threads' notifications, one cause.
    const gone: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      gone.push(
        await parkDirectly(
          `slack:T0000001:C0GONE:17000000${i}0.000100`,
          `DeliveryError: channel_not_found (request ${1000 + i})`,
          `gone ${i}`,
        ),
      );
    }
    // Another place and cause: two.
    const limited = [
      await parkDirectly(
        'slack:T0000001:C0BUSY:1700000000.000900',
        'DeliveryError: ratelimited',
        'busy 1',
      ),
      await parkDirectly(
        'slack:T0000001:C0BUSY:1700000001.000900',
        'DeliveryError: ratelimited',
        'busy 2',
      ),
    ];
    const page = await (await h.get('/console/queues', cookie)).text();
    const groupOf = (id: number) => {
      const at = page.indexOf(`data-notification="${id}"`);
      const start = page.lastIndexOf('<section class="card group"', at);
      return page.slice(start, page.indexOf('>', start));
    };
    expect(groupOf(gone[0]!)).toContain('data-count="5"');
    for (const id of gone) expect(groupOf(id)).toBe(groupOf(gone[0]!));
    expect(groupOf(limited[0]!)).toContain('data-count="2"');
    expect(groupOf(limited[0]!)).not.toBe(groupOf(gone[0]!));
    expect(page).toContain('5 notifications</strong> for');
    expect(page).toContain('Slack C0GONE');
    // Parked rows say how many deliveries were tried: never "0".
    expect(page).not.toMatch(/<td data-label="Attempts">0<\/td>/);

    // Retry a whole group: both go back, and the page says so.
    const csrf = csrfOf(page);
    const retried = await h.post(
      '/console/actions',
      {
        kind: 'notification',
        ids: limited.join(','),
        action: 'retry',
        csrf,
        back: '/console/queues',
      },
      cookie,
    );
    expect(retried.status).toBe(303);
    const afterRetry = retried.headers.get('location')!;
    expect(afterRetry).toBe('/console/queues?did=retry-notification&n=2&of=2');
    expect(await (await h.get(afterRetry, cookie)).text()).toContain(
      'Put 2 parked notifications back in their threads&#39; queues, due now.',
    );

    // Discard asks first: what will be deleted and what that means; nothing is deleted yet.
    const ask = `/console/queues/discard?kind=notification&ids=${gone.join(',')}&back=%2Fconsole%2Fqueues`;
    // One of them is retried meanwhile by someone else: it is left alone.
    expect(await store.operator!.retry('notification', gone[4]!, Date.now() + 3_600_000)).toBe(
      true,
    );
    const confirm = await h.get(ask, cookie);
    expect(confirm.status).toBe(200);
    const asked = (await confirm.text()).replace(/\s+/g, ' ');
    expect(asked).toContain('Discard 4 parked notifications?');
    expect(asked).toContain('will never be delivered');
    expect(asked).toContain('1 of the 5 asked for is no longer parked');
    for (const id of gone.slice(0, 4)) expect(asked).toContain(`data-notification="${id}"`);
    expect(asked).not.toContain(`data-notification="${gone[4]}"`);
    expect(
      (await store.outboxQueue.list({ status: 'parked' })).filter((n) => gone.includes(n.id)),
    ).toHaveLength(4);

    // Confirmed: deleted, and the page says what happened.
    const form = {
      kind: 'notification',
      ids: gone.slice(0, 4).join(','),
      action: 'discard',
      csrf,
      back: '/console/queues',
    };
    const discarded = await h.post('/console/actions', form, cookie);
    expect(discarded.status).toBe(303);
    const told = (await (await h.get(discarded.headers.get('location')!, cookie)).text()).replace(
      /\s+/g,
      ' ',
    );
    expect(told).toContain('Discarded 4 parked notifications: deleted, never to be delivered.');
    const left = await store.outboxQueue.list();
    expect(left.filter((n) => gone.slice(0, 4).includes(n.id))).toEqual([]);
    expect(left.find((n) => n.id === gone[4])?.status).toBe('pending');
    // Again: nothing left to do, and it says so rather than claiming a deletion.
    const again = await h.post('/console/actions', form, cookie);
    expect(await (await h.get(again.headers.get('location')!, cookie)).text()).toContain(
      'Nothing was discarded. All 4 were no longer parked',
    );
    // A viewer cannot even open the confirmation.
    h.idp.signInAs.slack = { team: 'T0000001', user: 'U0VIEWER', name: 'Vic' };
    const viewer = await signInWith('slack').then((r) => cookieOf(r)!);
    expect((await h.get(ask, viewer)).status).toBe(403);
    for (const id of [gone[4]!, ...limited]) await store.operator!.discard('notification', id);
  });
});

describe("a slash command's run page", () => {
  it('shows the command that started the run, kept under the channel, not the thread', async () => {
    h.idp.signInAs.slack = { team: 'T0000001', user: 'U0OLIVIA', name: 'Olivia' };
    const cookie = await signInWith('slack').then((r) => cookieOf(r)!);
    const store = h.service.store;
    const command = slashCommandBody({ text: 'sweep the stale branches', channel: 'C0SLASH01' });
    expect((await postSlack(`${h.service.url}/slack/events`, command)).status).toBe(200);
    // Once the run has ended, its thread is the status message's (the reply thread).
    const run = await waitUntil(
      async () => {
        const [found] = await store.operator!.listRuns({
          place: 'slack:T0000001:C0SLASH01',
          limit: 5,
        });
        return found?.state === 'SUCCEEDED' ? found : undefined;
      },
      { timeoutMs: 15_000 },
    );
    const own = await store.operator!.triggerOfRequest(run.requestId);
    expect(own?.trigger.text).toContain('sweep the stale branches');
    // What made it go missing: the trigger's key is not among the run's thread's keys.
    expect(await store.operator!.aliasesOf(run.threadKey)).not.toContain(own!.threadKey);
    const page = await (
      await h.get(`/console/runs/${encodeURIComponent(run.runId)}`, cookie)
    ).text();
    const triggers = page.slice(page.indexOf('Triggers of this run'));
    expect(triggers).toContain(`data-trigger="${own!.id}"`);
    expect(triggers).toContain('sweep the stale branches');
  });
});

describe('paging the runs', () => {
  it('shows a hundred at a time, newest first, and links to the older ones with the filters', async () => {
    const cookie = await signInWith('slack').then((r) => cookieOf(r)!);
    const start = Date.now() - 1_000_000;
    await h.service.store.transaction(async (tx) => {
      for (let i = 0; i < 101; i++)
        await tx.runs.insert(
          runRecord({
            runId: `page-${i}`,
            threadKey: `github:paging/app#${i + 1}`,
            createdAt: start + i,
          }),
        );
    });
    const first = await (await h.get('/console?place=github:paging', cookie)).text();
    const ids = (page: string) => [...page.matchAll(/data-run="([^"]+)"/g)].map((m) => m[1]);
    expect(ids(first)).toHaveLength(100);
    expect(ids(first)[0]).toBe('page-100');
    const href = /<a href="([^"]+)" id="older">/.exec(first)?.[1]?.replace(/&amp;/g, '&');
    expect(href).toBe(`/console?place=github%3Apaging&before=${start + 1}`);
    const second = await (await h.get(href!, cookie)).text();
    expect(ids(second)).toEqual(['page-0']);
    expect(second).not.toContain('id="older"');
  });
});

describe('the log', () => {
  it('holds no client secret, session cookie or provider token', () => {
    const text = JSON.stringify(h.logger.lines);
    expect(h.logger.lines.some((l) => l.msg === 'console: signed in')).toBe(true);
    for (const secret of [
      CLIENTS.slack.secret,
      CLIENTS.github.secret,
      'relay_console=',
      'xoxp-fake',
      'gho_fake',
    ])
      expect(text).not.toContain(secret);
  });
});

describe('behind https', () => {
  it('marks the cookies Secure, and the open event streams end when the service stops', async () => {
    const other = await startConsoleHarness({ CONSOLE_PUBLIC_URL: 'https://relay.example.com' });
    let stopped = false;
    try {
      const res = await fetch(other.service.console!.adminLink!, { redirect: 'manual' });
      expect(res.headers.getSetCookie()[0]).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
      const cookie = cookieOf(res)!;
      const events = await fetch(`${other.service.url}/console/events`, { headers: { cookie } });
      expect(events.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const reader = events.body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toContain('retry: 3000');
      const started = Date.now();
      await other.close();
      stopped = true;
      // The stream ended with the service instead of holding its drain for the full grace.
      expect(Date.now() - started).toBeLessThan(5_000);
      let done = false;
      while (!done) done = (await reader.read().catch(() => ({ done: true }))).done;
    } finally {
      if (!stopped) await other.close();
    }
  });
});
