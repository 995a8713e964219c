import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { createApi, startTestEmulator, type Api } from './helpers.js';

let emu: Emulator;
let api: Api;
let admin: Api;
beforeEach(async () => {
  ({ emu, api } = await startTestEmulator());
  admin = createApi(`${emu.url}/_emulator`, emu.apiKey);
});
afterEach(() => emu.close());

describe('failNext', () => {
  it('answers the next n contract requests with 503 + Retry-After, processing nothing', async () => {
    emu.faults.failNext(2, 503);
    for (let i = 0; i < 2; i++) {
      const res = await api('POST', '/agent/runs', { prompt: 'p' });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(res.body).toMatchObject({ status: 503, retryable: true });
      expect(res.body.type).toMatch(/\/resource_unavailable$/);
    }
    expect(emu.runs.count()).toBe(0);
    expect((await api('POST', '/agent/runs', { prompt: 'p' })).status).toBe(200);
    expect(emu.runs.count()).toBe(1);
  });

  it('supports 429 with a chosen Retry-After, and 500 without one', async () => {
    emu.faults.failNext(1, 429, { retryAfterSeconds: 7 });
    emu.faults.failNext(1, 500);
    const limited = await api('GET', '/agent/runs');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(limited.body.type).toMatch(/\/resource_unavailable$/);
    const broken = await api('GET', '/agent/runs');
    expect(broken.status).toBe(500);
    expect(broken.headers.get('retry-after')).toBeNull();
    expect(broken.body).toMatchObject({ retryable: true });
    expect(broken.body.type).toMatch(/\/internal_error$/);
  });

  it('applies before auth, and only to requests of the given route', async () => {
    emu.faults.failNext(1, 503, { route: 'POST /agent/runs' });
    expect((await createApi(emu.baseUrl, 'wrong')('GET', '/agent/runs')).status).toBe(401);
    expect((await api('GET', '/agent/runs')).status).toBe(200);
    expect(
      (await createApi(emu.baseUrl, 'wrong')('POST', '/agent/runs', { prompt: 'p' })).status,
    ).toBe(503);
    expect(emu.faults.snapshot().rules).toEqual([]);
  });

  it('rejects nonsense arguments', () => {
    expect(() => emu.faults.failNext(-1, 503)).toThrow(RangeError);
    expect(() => emu.faults.failNext(1, 200)).toThrow(RangeError);
    expect(() => emu.faults.setLatency(Number.NaN)).toThrow(RangeError);
  });
});

describe('dropNext', () => {
  it('destroys the socket before processing by default', async () => {
    emu.faults.dropNext(1);
    await expect(api('POST', '/agent/runs', { prompt: 'p' })).rejects.toThrow();
    expect(emu.runs.count()).toBe(0);
    expect((await api('GET', '/agent/runs')).status).toBe(200);
  });

  it('can process the request first (a create whose answer is lost)', async () => {
    emu.faults.dropNext(1, { afterProcessing: true });
    await expect(
      api('POST', '/agent/runs', { prompt: 'p', metadata: { relay_request: 'r1' } }),
    ).rejects.toThrow();
    expect(emu.runs.all().map((r) => r.metadata)).toEqual([{ relay_request: 'r1' }]);
  });
});

describe('latency', () => {
  it('delays contract requests until cleared', async () => {
    emu.faults.setLatency(150);
    const t = performance.now();
    await api('GET', '/agent/runs');
    expect(performance.now() - t).toBeGreaterThanOrEqual(140);
    emu.faults.clear();
    expect(emu.faults.snapshot()).toEqual({
      latencyMs: 0,
      atCapacityNext: 0,
      metadataFilterUnavailable: false,
      offSpecRuns: [],
      rules: [],
    });
    expect((await api('GET', '/agent/runs')).status).toBe(200);
  });
});

describe('atCapacityNext', () => {
  it('the next n creates are taken but answer at_capacity: true; then false again', async () => {
    emu.faults.atCapacityNext(2);
    // Other requests and refused creates do not use it up.
    expect((await api('GET', '/agent/runs')).status).toBe(200);
    expect((await api('POST', '/agent/runs', {})).status).toBe(400);
    const answers = [];
    for (let i = 0; i < 3; i++) {
      const res = await api('POST', '/agent/runs', { prompt: `p${i}` });
      expect(res.status).toBe(200);
      answers.push(res.body);
    }
    expect(answers.map((a) => a.at_capacity)).toEqual([true, true, false]);
    expect(answers[0]).toMatchObject({ run_id: expect.any(String), state: 'QUEUED' });
    // The runs were created all the same.
    expect(emu.runs.count()).toBe(3);
    expect(emu.runs.get(answers[0].run_id as string)?.prompt).toBe('p0');
    expect(emu.faults.snapshot().atCapacityNext).toBe(0);
  });

  it('a failed create leaves the count for the next one; clear resets it', async () => {
    emu.faults.failNext(1, 503, { route: 'POST /agent/runs' });
    emu.faults.atCapacityNext(1);
    expect((await api('POST', '/agent/runs', { prompt: 'p' })).status).toBe(503);
    expect((await api('POST', '/agent/runs', { prompt: 'p' })).body.at_capacity).toBe(true);
    emu.faults.atCapacityNext(3);
    emu.faults.clear();
    expect((await api('POST', '/agent/runs', { prompt: 'p' })).body.at_capacity).toBe(false);
    expect(() => emu.faults.atCapacityNext(-1)).toThrow(RangeError);
    expect(() => emu.faults.atCapacityNext(1.5)).toThrow(RangeError);
  });
});

describe('admin surface', () => {
  it('sets, shows and clears faults over HTTP', async () => {
    const set = await admin('POST', '/faults', {
      failNext: 1,
      status: 429,
      retryAfterSeconds: 3,
      dropNext: 1,
      latencyMs: 5,
    });
    expect(set.status).toBe(200);
    expect(set.body.rules).toHaveLength(2);
    expect((await api('GET', '/agent/runs')).headers.get('retry-after')).toBe('3');
    await expect(api('GET', '/agent/runs')).rejects.toThrow();
    expect((await api('GET', '/agent/runs')).status).toBe(200);
    expect((await admin('GET', '/faults')).body).toEqual({
      latencyMs: 5,
      atCapacityNext: 0,
      metadataFilterUnavailable: false,
      offSpecRuns: [],
      rules: [],
    });
    expect((await admin('DELETE', '/faults')).body.latencyMs).toBe(0);
    expect((await admin('POST', '/faults', { failNext: 1, status: 200 })).status).toBe(400);
    expect((await admin('POST', '/faults', { bogus: true })).status).toBe(400);
  });

  it('sets atCapacityNext over HTTP', async () => {
    const set = await admin('POST', '/faults', { atCapacityNext: 1 });
    expect(set.body).toMatchObject({ atCapacityNext: 1 });
    expect((await api('POST', '/agent/runs', { prompt: 'p' })).body.at_capacity).toBe(true);
    expect((await admin('GET', '/faults')).body.atCapacityNext).toBe(0);
    expect((await admin('POST', '/faults', { atCapacityNext: -1 })).status).toBe(400);
    expect((await admin('POST', '/faults', { atCapacityNext: 'two' })).status).toBe(400);
  });

  it('does not apply faults to admin requests, and reports stats', async () => {
    emu.faults.failNext(5, 503);
    expect((await admin('GET', '/stats')).status).toBe(200);
    await api('GET', '/agent/runs');
    await api('GET', '/agent/runs/x');
    const stats = (await admin('GET', '/stats')).body;
    expect(stats.requests).toEqual({ 'GET /agent/runs': 1, 'GET /agent/runs/:id': 1 });
    expect(stats.requests_total).toBe(2);
    expect(stats.runs).toEqual({ total: 0, by_state: {} });
    await admin('POST', '/stats/reset');
    expect(emu.requests.total()).toBe(0);
  });

  it('seeds runs and lists follow-ups', async () => {
    const seeded = await admin('POST', '/seed', {
      count: 3,
      state: 'SUCCEEDED',
      metadata: { batch: 'b1' },
    });
    expect(seeded.body.created).toBe(3);
    const id = seeded.body.run_ids[0] as string;
    await api('POST', `/agent/runs/${id}/followups`, { message: 'hello' });
    expect((await admin('GET', `/followups?run_id=${id}`)).body.followups).toEqual([
      { followupId: expect.any(String), runId: id, message: 'hello', at: expect.any(Number) },
    ]);
    expect((await admin('GET', '/followups?run_id=other')).body.followups).toEqual([]);
    expect((await admin('GET', '/stats')).body.runs.by_state).toEqual({ SUCCEEDED: 2, QUEUED: 1 });
    expect((await admin('POST', '/seed', { count: 0 })).status).toBe(400);
    expect((await admin('POST', '/seed', { count: 1, metadata: { 'bad key': 'v' } })).status).toBe(
      400,
    );
  });
});
