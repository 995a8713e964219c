import { beforeEach, describe, expect, it } from 'vitest';
import { createRun, emulatorPerTest } from './helpers.js';

const ctx = emulatorPerTest();

type Item = {
  run_id: string;
  title: string;
  state: string;
  created_at: string;
  updated_at: string;
};
async function page(
  query: string,
): Promise<{ runs: Item[]; page_info: { has_next_page: boolean; next_cursor?: string } }> {
  const res = await ctx.api('GET', `/agent/runs${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}
async function all(query: string): Promise<Item[]> {
  const out: Item[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 1000; i++) {
    const sep = query.includes('?') ? '&' : '?';
    const p = await page(cursor ? `${query}${sep}cursor=${encodeURIComponent(cursor)}` : query);
    out.push(...p.runs);
    if (!p.page_info.has_next_page) {
      expect(p.page_info.next_cursor).toBeUndefined();
      return out;
    }
    cursor = p.page_info.next_cursor;
  }
  throw new Error('pagination did not end');
}

/** Runs created 1 s apart; returns ids oldest first. */
async function createMany(
  n: number,
  body: (i: number) => Record<string, unknown>,
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    ids.push(await createRun(ctx.api, body(i)));
    ctx.clock.advance(1);
  }
  return ids;
}

describe('GET /agent/runs pagination and sorting', () => {
  it('pages 45 runs as 20 + 20 + 5, newest update first, each run once', async () => {
    const ids = await createMany(45, (i) => ({ prompt: `run ${i}` }));
    const first = await page('');
    expect(first.runs).toHaveLength(20);
    expect(first.page_info.has_next_page).toBe(true);
    expect(first.page_info.next_cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const everything = await all('?limit=20');
    expect(everything.map((r) => r.run_id)).toEqual([...ids].reverse());
  });

  it('sorts by created_at ascending and by title both ways, ties by creation order', async () => {
    const ids = await createMany(7, (i) => ({
      prompt: 'p',
      title: ['beta', 'Alpha', 'gamma', 'alpha'][i % 4],
    }));
    expect((await all('?sort_by=created_at&sort_order=asc&limit=2')).map((r) => r.run_id)).toEqual(
      ids,
    );
    const asc = await all('?sort_by=title&sort_order=asc&limit=3');
    expect(asc.map((r) => r.title.toLowerCase())).toEqual([
      'alpha',
      'alpha',
      'alpha',
      'beta',
      'beta',
      'gamma',
      'gamma',
    ]);
    expect(asc.slice(0, 3).map((r) => r.run_id)).toEqual([ids[1], ids[3], ids[5]]);
    const desc = await all('?sort_by=title&limit=3');
    expect(desc.map((r) => r.run_id)).toEqual([...asc].reverse().map((r) => r.run_id));
  });

  it('puts a run that changed state first in updated_at order', async () => {
    const ids = await createMany(3, (i) => ({ prompt: `p${i}` }));
    ctx.clock.advance(5);
    ctx.emu.advance(ids[0] as string);
    expect((await page('?limit=1')).runs[0]?.run_id).toBe(ids[0]);
  });

  it('keeps pages stable (no repeats) when runs are created between pages', async () => {
    const ids = await createMany(6, (i) => ({ prompt: `p${i}` }));
    const p1 = await page('?sort_by=created_at&limit=3');
    await createMany(2, () => ({ prompt: 'late' }));
    const p2 = await page(`?sort_by=created_at&limit=3&cursor=${p1.page_info.next_cursor}`);
    expect([...p1.runs, ...p2.runs].map((r) => r.run_id)).toEqual([...ids].reverse());
  });

  it.each([
    ['limit=0', /limit/],
    ['limit=501', /limit/],
    ['limit=ten', /limit/],
    ['sort_by=state', /sort_by/],
    ['sort_order=up', /sort_order/],
    ['created_after=yesterday', /created_after/],
    ['created_before=2025-13-45', /created_before/],
    ['updated_after=2025-01-01', /updated_after/],
    ['cursor=not-a-cursor', /cursor/],
  ])('rejects %s with 400', async (query, detail) => {
    const res = await ctx.api('GET', `/agent/runs?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(detail);
  });

  it('rejects a cursor issued for another sort, accepts limit 1 and 500', async () => {
    await createMany(3, () => ({ prompt: 'p' }));
    const p = await page('?limit=1&sort_by=title');
    expect(
      (await ctx.api('GET', `/agent/runs?sort_by=created_at&cursor=${p.page_info.next_cursor}`))
        .status,
    ).toBe(400);
    expect((await page(`?cursor=${p.page_info.next_cursor}`)).runs).toHaveLength(2);
    expect((await page('?limit=500')).runs).toHaveLength(3);
  });
});

describe('GET /agent/runs filters', () => {
  let ids: string[];
  let t0: number;
  beforeEach(async () => {
    t0 = ctx.clock.now();
    ids = await createMany(6, (i) => ({
      prompt: i % 2 === 0 ? `Fix the Login bug ${i}` : `Write docs ${i}`,
      config: { name: i < 3 ? 'alpha' : 'beta', model_id: i % 3 === 0 ? 'model-x' : 'model-y' },
      metadata: { relay_thread: `thread-${i % 2}`, relay_request: `req-${i}` },
    }));
    ctx.emu.setState(ids[0] as string, 'INPROGRESS');
    ctx.emu.setState(ids[1] as string, 'SUCCEEDED');
    ctx.emu.setState(ids[2] as string, 'BLOCKED');
  });
  const idsOf = async (q: string) => (await all(q)).map((r) => r.run_id).sort();
  const pick = (...i: number[]) => i.map((k) => ids[k] as string).sort();

  it('filters by repeatable state (OR)', async () => {
    expect(await idsOf('?state=INPROGRESS&state=SUCCEEDED')).toEqual(pick(0, 1));
    expect(await idsOf('?state=QUEUED')).toEqual(pick(3, 4, 5));
    expect(await idsOf('?state=CANCELLED')).toEqual([]);
  });

  it('filters by name, model_id, creator and source exactly', async () => {
    expect(await idsOf('?name=alpha')).toEqual(pick(0, 1, 2));
    expect(await idsOf('?name=Alpha')).toEqual([]);
    expect(await idsOf('?model_id=model-x')).toEqual(pick(0, 3));
    expect(await idsOf('?name=beta&model_id=model-y')).toEqual(pick(4, 5));
    expect(await idsOf('?creator=sa-api-key')).toHaveLength(6);
    expect(await idsOf('?creator=someone-else')).toEqual([]);
    expect(await idsOf('?source=API')).toHaveLength(6);
    expect(await idsOf('?source=SLACK')).toEqual([]);
  });

  it('filters by created_after / created_before / updated_after (RFC 3339, exclusive)', async () => {
    const at = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
    expect(await idsOf(`?created_after=${at(t0 + 3)}`)).toEqual(pick(4, 5));
    expect(await idsOf(`?created_before=${at(t0 + 2)}`)).toEqual(pick(0, 1));
    expect(await idsOf(`?created_after=${at(t0)}&created_before=${at(t0 + 5)}`)).toEqual(
      pick(1, 2, 3, 4),
    );
    expect(await idsOf(`?updated_after=${at(t0 + 5)}`)).toEqual(pick(0, 1, 2));
    expect(
      await idsOf(`?created_after=${encodeURIComponent('2025-01-01T01:00:00.002+01:00')}`),
    ).toEqual(pick(3, 4, 5));
  });

  it('filters by metadata[KEY]=value and by q (case-insensitive substring of title/prompt)', async () => {
    expect(await idsOf('?metadata[relay_thread]=thread-1')).toEqual(pick(1, 3, 5));
    expect(await idsOf('?metadata[relay_request]=req-4&metadata[relay_thread]=thread-0')).toEqual(
      pick(4),
    );
    expect(await idsOf('?metadata[relay_request]=nope')).toEqual([]);
    expect(await idsOf('?q=login')).toEqual(pick(0, 2, 4));
    expect(await idsOf('?q=DOCS%205')).toEqual(pick(5));
    expect(await idsOf('?q=login&state=BLOCKED')).toEqual(pick(2));
  });
});

describe('10,000 runs', () => {
  it('lists, filters and pages through 10,000 seeded runs', async () => {
    const seeded = ctx.emu.seedRuns(10_000, {
      state: 'SUCCEEDED',
      prompt: (i) => `seeded task ${i}`,
      metadata: (i) => ({ relay_request: `r${i}` }),
    });
    const live = ctx.emu.seedRuns(50, { state: 'INPROGRESS', manual: true });
    expect(ctx.emu.runs.count()).toBe(10_050);

    const started = performance.now();
    const first = await page('?limit=500');
    const byState = await all('?state=INPROGRESS&limit=20');
    const byMeta = await page(`?metadata[relay_request]=r9999`);
    const everything = await all('?limit=500&sort_by=created_at&sort_order=asc');
    const ms = performance.now() - started;
    console.log(
      `10,050 runs: ${2 + Math.ceil(10_050 / 500) + 3} list requests in ${ms.toFixed(0)} ms`,
    );

    expect(first.runs).toHaveLength(500);
    expect(byState.map((r) => r.run_id).sort()).toEqual([...live].sort());
    expect(byMeta.runs.map((r) => r.run_id)).toEqual([seeded[9999]]);
    expect(everything).toHaveLength(10_050);
    expect(new Set(everything.map((r) => r.run_id)).size).toBe(10_050);
    expect(everything[0]?.run_id).toBe(seeded[0]);
  });
});
