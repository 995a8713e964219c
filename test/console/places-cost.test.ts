/**
 * The console's cost per place and per run, over HTTP against the running service: each
 * place's month (spend, budget, share used, runs) sorted by spend, and the runs sorted by
 * cost across all of them, not only the page shown.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthStartUtc } from '../../src/core/place.js';
import { runRecord, signInLocally, startConsoleHarness } from './console-harness.js';
import type { ConsoleHarness } from './console-harness.js';

let h: ConsoleHarness;
let admin: string;
beforeAll(async () => {
  h = await startConsoleHarness();
  admin = await signInLocally(h.service);
}, 30_000);
afterAll(() => h.close());

const get = async (path: string) =>
  (await fetch(`${h.service.url}${path}`, { headers: { cookie: admin } })).text();
const order = (page: string, attr: string) =>
  [...page.matchAll(new RegExp(`data-${attr}="([^"]+)"`, 'g'))].map((m) => m[1]);

describe('console: cost per place', () => {
  it("lists each place's month with its budget and share used, sortable by spend", async () => {
    const store = h.service.store;
    const now = Date.now();
    const month = monthStartUtc(now);
    const runs = [
      ['p1', 'slack:T0000001:C0CHEAP:1700000001.000100', 1.5],
      ['p2', 'slack:T0000001:C0CHEAP:1700000002.000100', 0.5],
      ['p3', 'github:acme/app#4', 40],
      ['p4', 'github:acme/app#5', undefined],
      ['p7', 'github:acme/quiet#1', undefined],
      ['p5', 'linear:org1:team1:session1', 1],
      // Last month: counts for no place.
      ['p6', 'slack:T0000001:C0OLD:1700000003.000100', 99],
    ] as const;
    for (const [runId, threadKey, costUsd] of runs)
      await store.runs.insert(
        runRecord({
          runId,
          threadKey,
          ...(threadKey.startsWith('linear:') ? { platform: 'linear' as const } : {}),
          ...(costUsd === undefined ? {} : { costUsd }),
          createdAt: runId === 'p6' ? month - 60_000 : now - 1_000,
        }),
      );
    await store.settings.set('github:acme/app', 'budget', '50', 'U0ADMIN', now);
    await store.settings.set('slack:T0000001:C0CHEAP', 'budget', '2', 'U0ADMIN', now);

    const page = await get('/console/places');
    expect(order(page, 'place')).toEqual([
      'github:acme/app',
      'slack:T0000001:C0CHEAP',
      'linear:org1:team1',
      'github:acme/quiet',
    ]);
    const row = (scope: string) => {
      const start = page.indexOf(`data-place="${scope}"`);
      return page.slice(start, page.indexOf('</tr>', start));
    };
    expect(row('github:acme/app')).toContain('≈ $40.00');
    expect(row('github:acme/app')).toContain('$50');
    expect(row('github:acme/app')).toContain('80 %');
    expect(row('github:acme/app')).toMatch(/data-label="Runs">\s*2\s*</);
    expect(row('slack:T0000001:C0CHEAP')).toContain('≈ $2.00');
    expect(row('slack:T0000001:C0CHEAP')).toContain('100 %');
    expect(row('linear:org1:team1')).toContain('Linear team team1');
    expect(row('linear:org1:team1')).toMatch(/data-label="Budget">\s*–\s*</);
    expect(page).not.toContain('C0OLD');
    // A place where no run reported a cost: its spend is unknown, not $0.
    expect(row('github:acme/quiet')).toMatch(/data-label="Spend ≈">\s*–\s*</);

    expect(order(await get('/console/places?sort=place'), 'place')).toEqual([
      'github:acme/app',
      'github:acme/quiet',
      'linear:org1:team1',
      'slack:T0000001:C0CHEAP',
    ]);
    // Nav link from every page.
    expect(await get('/console')).toContain('href="/console/places"');
  });

  it('sorts the runs by cost across all runs, in pages', async () => {
    const store = h.service.store;
    const now = Date.now();
    // 120 cheap recent runs, and the dearest run the oldest: not on the newest page.
    for (let i = 0; i < 120; i += 1)
      await store.runs.insert(
        runRecord({
          runId: `c${String(i).padStart(3, '0')}`,
          threadKey: `slack:T0000001:C0SORT:1700000100.${String(i).padStart(6, '0')}`,
          costUsd: 0.01 + i / 1000,
          createdAt: now - 1_000 + i,
        }),
      );
    await store.runs.insert(
      runRecord({
        runId: 'c-dear',
        threadKey: 'slack:T0000001:C0SORT:1600000000.000100',
        costUsd: 500,
        createdAt: now - 86_400_000,
      }),
    );
    await store.runs.insert(
      runRecord({
        runId: 'c-none',
        threadKey: 'slack:T0000001:C0SORT:1700000200.000100',
        createdAt: now,
      }),
    );
    const newest = order(await get('/console?place=slack:T0000001:C0SORT'), 'run');
    expect(newest[0]).toBe('c-none');
    expect(newest).not.toContain('c-dear');

    const first = await get('/console?place=slack:T0000001:C0SORT&sort=cost');
    const firstIds = order(first, 'run');
    expect(firstIds.slice(0, 3)).toEqual(['c-dear', 'c119', 'c118']);
    expect(firstIds).toHaveLength(100);
    expect(first).toMatch(/href="\/console\?[^"]*sort=cost&amp;offset=100"[^>]*id="older"/);
    const second = order(
      await get('/console?place=slack%3AT0000001%3AC0SORT&sort=cost&offset=100'),
      'run',
    );
    // The rest, cheapest last and the run without a cost after every costed one.
    expect(second).toHaveLength(22);
    expect(second.slice(-2)).toEqual(['c000', 'c-none']);
    expect(new Set([...firstIds, ...second]).size).toBe(122);
  });
});
