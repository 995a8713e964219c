/**
 * The console in a real browser: Debian's chromium driven by playwright-core signs in with
 * the local admin link, filters the runs, opens a run and sees its state change arrive
 * live, and retries a parked notification while a second tab watching the queues sees it
 * leave without reloading. Skipped, with a warning, only where no chromium is installed.
 * `UPDATE_SCREENSHOTS=1` also writes the README's screenshots (docs/console-*.png).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';
import { runRecord, startConsoleHarness } from './console-harness.js';
import type { ConsoleHarness } from './console-harness.js';
import { waitUntil } from '../helpers/wait-until.js';
import { appMentionEvent, eventCallback, postSlack } from '../helpers/slack.js';

function findChromium(): string | undefined {
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

const executablePath = findChromium();
if (!executablePath)
  console.warn(
    'SKIPPED: the console browser tests need Debian chromium (`apt-get install -y ' +
      '--no-install-recommends chromium`); none is installed here.',
  );
const screenshots = process.env.UPDATE_SCREENSHOTS === '1';

/**
 * Run in the page: the words of the places shown (the runs' Place column, the places page, a
 * run's Place) that are broken across lines although they would fit on one line of their box.
 */
const SPLIT_PLACE_WORDS = `(() => {
  const split = [];
  const boxes = document.querySelectorAll('td[data-label="Place"], [data-place], dl.facts dd.place');
  for (const box of boxes) {
    const room = box.getBoundingClientRect().width;
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent || '';
      for (const m of text.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0);
        const lines = new Set(rects.map((r) => Math.round(r.top)));
        const width = rects.reduce((sum, r) => sum + r.width, 0);
        if (lines.size > 1 && width <= room) split.push(m[0]);
      }
    }
  }
  return split;
})()`;
const docs = join(import.meta.dirname, '../../docs');

describe.skipIf(!executablePath)('the console in chromium', () => {
  let h: ConsoleHarness;
  let context: BrowserContext;
  let profile: string;

  beforeAll(async () => {
    h = await startConsoleHarness();
    profile = mkdtempSync(join(tmpdir(), 'relay-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: executablePath!,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
      viewport: { width: 1280, height: 800 },
    });
    const store = h.service.store;
    const now = Date.now();
    const runs = [
      runRecord({
        runId: 'run-aa01',
        threadKey: 'slack:T0000001:C0GENERAL:1700000001.000100',
        title: 'Fix the flaky login test',
        state: 'SUCCEEDED',
        costUsd: 1.24,
        tokens: 312_000,
        createdAt: now - 3_600_000,
        updatedAt: now - 3_000_000,
      }),
      runRecord({
        runId: 'run-aa02',
        threadKey: 'github:acme/app#42',
        title: 'Upgrade the payment SDK',
        state: 'INPROGRESS',
        costUsd: 8.5,
        requester: { id: 'octo-bob', name: 'Bob' },
        createdAt: now - 600_000,
        updatedAt: now - 300_000,
      }),
      runRecord({
        runId: 'run-aa03',
        threadKey: 'github:acme/docs#7',
        title: 'Document the retry policy',
        state: 'BLOCKED',
        requester: { id: 'octo-carol', name: 'Carol' },
        createdAt: now - 1_200_000,
        updatedAt: now - 900_000,
      }),
      runRecord({
        runId: 'run-aa04',
        threadKey: 'slack:T0000001:C0RELEASE:1700000002.000200',
        title: 'Draft the release notes',
        state: 'FAILED',
        createdAt: now - 7_200_000,
        updatedAt: now - 7_000_000,
      }),
    ];
    // One run the real way: a mention in Slack, carried out by the embedded emulator.
    const ts = h.slack.seedMessage({
      channel: 'C0GENERAL',
      user: 'U0DANA',
      text: '<@UBOT0001> tidy the CI config',
    });
    const mention = eventCallback(
      appMentionEvent({
        text: '<@UBOT0001> tidy the CI config',
        ts,
        channel: 'C0GENERAL',
        user: 'U0DANA',
      }),
    );
    expect((await postSlack(`${h.service.url}/slack/events`, mention)).status).toBe(200);
    await waitUntil(
      async () =>
        (await store.operator!.listRuns({ limit: 5 })).some((r) => r.state === 'SUCCEEDED'),
      { timeoutMs: 20_000 },
    );
    for (const run of runs) await store.runs.insert(run);
    await store.settings.set('github:acme/app', 'budget', '10', 'U0ADMIN', now);
    await store.runs.update('run-aa02', { state: 'CLAIMED', updatedAt: now - 500_000 });
    await store.runs.update('run-aa02', { state: 'INPROGRESS', updatedAt: now - 300_000 });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await h?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  const shot = async (page: Page, name: string) => {
    if (screenshots)
      await page.screenshot({ path: join(docs, `console-${name}.png`), fullPage: true });
  };

  it('signs in, filters, opens a run that changes live, and retries a parked notification', async () => {
    const page = await context.newPage();
    // Not signed in: the console sends the browser to sign in.
    await page.goto(`${h.service.url}/console`);
    expect(new URL(page.url()).pathname).toBe('/console/signin');
    await shot(page, 'signin');

    await page.goto(h.service.console!.adminLink!);
    expect(new URL(page.url()).pathname).toBe('/console');
    await page.waitForSelector('#live.on');
    expect(await page.locator('#runs tbody tr[data-run]').count()).toBe(5);
    // The real run: its place links to the thread, and the service's session link is shown.
    const real = page.locator('#runs tbody tr[data-run]', { hasText: 'tidy the CI config' });
    expect(await real.locator('a', { hasText: 'Session' }).count()).toBe(1);
    expect(await real.locator('[data-state]').getAttribute('data-state')).toBe('SUCCEEDED');
    const realId = await real.getAttribute('data-run');
    const realHistory = (await h.service.store.operator!.stateHistory(realId!)).map((c) => c.state);
    expect(realHistory.length).toBeGreaterThanOrEqual(2);
    expect(realHistory.at(-1)).toBe('SUCCEEDED');
    await shot(page, 'runs');

    // Filter: GitHub runs only.
    await page.selectOption('select[name="platform"]', 'github');
    await Promise.all([
      page.waitForURL(/platform=github/),
      page.click('button:has-text("Filter")'),
    ]);
    const shown = await page
      .locator('#runs tbody tr[data-run]')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-run')));
    expect(shown.sort()).toEqual(['run-aa02', 'run-aa03']);

    // Open a run; its state history is there, and a change arrives without a reload.
    await Promise.all([
      page.waitForURL(/\/console\/runs\/run-aa02$/),
      page.click('a:has-text("Upgrade the payment SDK")'),
    ]);
    await page.waitForSelector('#live.on');
    const history = () =>
      page
        .locator('table.history [data-state]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-state')));
    expect(await history()).toEqual(['INPROGRESS', 'CLAIMED', 'INPROGRESS']);
    await page.evaluate(() => ((globalThis as unknown as { marker: number }).marker = 1));
    await h.service.store.runs.update('run-aa02', { state: 'SUCCEEDED', updatedAt: Date.now() });
    await page.waitForSelector('h1 [data-state="SUCCEEDED"]', { timeout: 20_000 });
    expect(await history()).toEqual(['INPROGRESS', 'CLAIMED', 'INPROGRESS', 'SUCCEEDED']);
    expect(await page.evaluate(() => (globalThis as unknown as { marker?: number }).marker)).toBe(
      1,
    );
    await shot(page, 'run');

    // A notification Slack refused is parked; a second tab watches the queues.
    h.slack.failNext('chat.postMessage', { error: 'channel_not_found' });
    const id = await h.service.store.outbox.enqueue(
      {
        kind: 'post',
        destination: { threadKey: 'slack:T0000001:C0RELEASE:1700000002.000200' },
        message: { type: 'notice', tone: 'warning', text: 'The release notes run failed.' },
      },
      Date.now(),
    );
    h.service.engine.outbox.wake();
    await waitUntil(
      async () =>
        (await h.service.store.outboxQueue.list({ status: 'parked' })).some((n) => n.id === id),
      { timeoutMs: 15_000 },
    );
    const watcher = await context.newPage();
    await watcher.goto(`${h.service.url}/console/queues`);
    await watcher.waitForSelector('#live.on');
    await watcher.waitForSelector(`tr[data-notification="${id}"][data-status="parked"]`);
    await watcher.evaluate(() => ((globalThis as unknown as { marker: number }).marker = 2));

    await page.goto(`${h.service.url}/console/queues`);
    await Promise.all([
      page.waitForURL(/\/console\/queues$/),
      page.click(`[data-action="retry-notification-${id}"]`),
    ]);
    // Delivered: Slack got it, and the watching tab saw the row leave without a reload.
    await waitUntil(
      () => h.slack.messages.some((m) => m.text?.includes('release notes run failed')),
      { timeoutMs: 15_000 },
    );
    await watcher.waitForSelector(`tr[data-notification="${id}"]`, {
      state: 'detached',
      timeout: 20_000,
    });
    expect(
      await watcher.evaluate(() => (globalThis as unknown as { marker?: number }).marker),
    ).toBe(2);
    expect(await watcher.locator('#queue-health').innerText()).toMatch(/0\s+parked notifications/);

    // A GitHub issue the bot cannot write to: four notifications parked, one cause, one place,
    // and one more in a Slack channel it left (long thread keys and errors, as they come).
    const parkedIds: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const parkedId = await h.service.store.outbox.enqueue(
        {
          kind: 'post',
          destination: { threadKey: 'github:acme/locked-repository-with-a-long-name#1234' },
          message: { type: 'notice', tone: 'info', text: `locked ${i}` },
        },
        Date.now() + 3_600_000,
      );
      await h.service.store.outboxQueue.park(
        parkedId,
        `DeliveryError: GitHub refused post comment (403 forbidden: Resource not accessible by integration, request ${7_000_000 + i})`,
        Date.now(),
      );
      parkedIds.push(parkedId);
    }
    const slackParked = await h.service.store.outbox.enqueue(
      {
        kind: 'post',
        destination: { threadKey: 'slack:T0000001:C0ARCHIVEDCHANNEL:1700000009.000900' },
        message: { type: 'notice', tone: 'info', text: 'archived' },
      },
      Date.now() + 3_600_000,
    );
    await h.service.store.outboxQueue.park(slackParked, 'DeliveryError: is_archived', Date.now());
    await watcher.waitForSelector('[data-group][data-count="4"]', { timeout: 20_000 });
    await shot(watcher, 'queues');

    // On a phone (390 px wide) every page fits: no horizontal scrolling.
    const narrow = await context.newPage();
    const widths: { path: string; width: number }[] = [];
    await narrow.setViewportSize({ width: 390, height: 844 });
    await narrow.goto(`${h.service.url}/console/queues`);
    // What needs attention is the first card, not below the others.
    const cards = await narrow.locator('#queue-health .stat').evaluateAll((els) =>
      els.map((e) => ({
        alert: e.classList.contains('alert'),
        top: e.getBoundingClientRect().top,
      })),
    );
    const firstCalm = Math.min(...cards.filter((c) => !c.alert).map((c) => c.top));
    expect(cards.filter((c) => c.alert).length).toBeGreaterThan(0);
    expect(cards.filter((c) => c.alert).every((c) => c.top < firstCalm)).toBe(true);
    for (const path of [
      '/console',
      '/console?sort=cost',
      '/console/places',
      `/console/runs/${realId}`,
      '/console/runs/run-aa02',
      '/console/queues',
      `/console/queues/discard?kind=notification&ids=${parkedIds.join(',')}&back=%2Fconsole%2Fqueues`,
    ]) {
      await narrow.goto(`${h.service.url}${path}`);
      if (path === '/console/places') {
        expect(await narrow.locator('[data-place="github:acme/app"]').innerText()).toContain(
          '85 %',
        );
        await shot(narrow, 'places');
      }
      const width = await narrow.evaluate(() => {
        const doc = (
          globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }
        ).document;
        return doc.documentElement.scrollWidth;
      });
      widths.push({ path, width });
    }
    expect(widths.filter((w) => w.width > 390)).toEqual([]);
    // A place is never broken inside a word that fits its line, wide or narrow.
    for (const page of [narrow, watcher]) {
      for (const path of ['/console', '/console/places', `/console/runs/${realId}`]) {
        await page.goto(`${h.service.url}${path}`);
        const split = (await page.evaluate(SPLIT_PLACE_WORDS)) as string[];
        expect({ path, width: page.viewportSize()?.width, split }).toEqual({
          path,
          width: page.viewportSize()?.width,
          split: [],
        });
      }
    }
    // A run's page is compact on a phone: its history, notifications and triggers one short
    // block each, not a line per column (the real run: its states, eight notifications).
    await narrow.goto(`${h.service.url}/console/runs/${realId}`);
    expect(await narrow.locator('table.notifications tbody tr').count()).toBeGreaterThanOrEqual(6);
    // Each row one short block (at most about four lines; a line per column was 150 px and
    // more), and the page well under the 3,688 px it was; how many rows a run has varies.
    const rowHeights = (await narrow.evaluate(
      '[...document.querySelectorAll("table tbody tr")].map((r) => r.getBoundingClientRect().height)',
    )) as number[];
    expect(rowHeights.length).toBeGreaterThanOrEqual(6);
    expect(rowHeights.filter((h) => h > 110)).toEqual([]);
    expect(await narrow.evaluate('document.documentElement.scrollHeight')).toBeLessThanOrEqual(
      2_400,
    );

    // Discard the group: a page says what will be deleted; confirmed, the queues say what was.
    await narrow.goto(`${h.service.url}/console/queues`);
    await Promise.all([
      narrow.waitForURL(/\/console\/queues\/discard\?/),
      narrow.click('[data-count="4"] [data-action="discard-group"]'),
    ]);
    expect(await narrow.locator('h1').innerText()).toBe('Discard 4 parked notifications?');
    await shot(narrow, 'discard');
    await Promise.all([
      narrow.waitForURL(/did=discard-notification&n=4&of=4/),
      narrow.click('[data-action="confirm-discard"]'),
    ]);
    expect(await narrow.locator('#notice').innerText()).toBe(
      'Discarded 4 parked notifications: deleted, never to be delivered.',
    );
    expect(await narrow.locator('[data-count="4"]').count()).toBe(0);
    const remaining = (await h.service.store.outboxQueue.list()).map((n) => n.id);
    expect(remaining.filter((id) => parkedIds.includes(id))).toEqual([]);
    expect(remaining).toContain(slackParked);
    await narrow.close();

    if (screenshots) {
      const phone = await context.newPage();
      await phone.setViewportSize({ width: 390, height: 844 });
      await phone.goto(`${h.service.url}/console`);
      await shot(phone, 'phone');
      await phone.close();
    }
  }, 90_000);
});
