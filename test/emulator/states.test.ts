import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { worldPerTest } from '../helpers/world-per-test.js';
import { createApi, createRun, getState, startTestEmulator, TEST_TIMINGS } from './helpers.js';

const start = worldPerTest(startTestEmulator);
const startRealTime = worldPerTest(startEmulator);

const iso = (ms: number) => new Date(ms).toISOString();

describe('state progression on the clock', () => {
  it('moves QUEUED -> PENDING -> CLAIMED -> INPROGRESS -> SUCCEEDED at the configured times', async () => {
    const t = await start();
    const t0 = t.clock.now();
    const id = await createRun(t.api, { prompt: 'Add a changelog entry' });
    const seen: { state: string; updated: string; started: unknown }[] = [];
    for (const step of [0, 100, 100, 100, 999, 1]) {
      t.clock.advance(step);
      const run = (await t.api('GET', `/agent/runs/${id}`)).body;
      seen.push({ state: run.state, updated: run.updated_at, started: run.started_at });
    }
    expect(seen).toEqual([
      { state: 'QUEUED', updated: iso(t0), started: null },
      { state: 'PENDING', updated: iso(t0 + 100), started: null },
      { state: 'CLAIMED', updated: iso(t0 + 200), started: null },
      { state: 'INPROGRESS', updated: iso(t0 + 300), started: iso(t0 + 300) },
      { state: 'INPROGRESS', updated: iso(t0 + 300), started: iso(t0 + 300) },
      { state: 'SUCCEEDED', updated: iso(t0 + 1300), started: iso(t0 + 300) },
    ]);
    const run = (await t.api('GET', `/agent/runs/${id}`)).body;
    expect(run.run_time).toBe('PT1S');
    expect(run.artifacts).toEqual([
      {
        artifact_type: 'PULL_REQUEST',
        created_at: iso(t0 + 1300),
        data: {
          url: expect.stringMatching(/^https:\/\/github\.com\/example\/repo\/pull\/\d+$/),
          branch: 'agent/add-a-changelog-entry',
          status: 'open',
        },
      },
    ]);
    expect(t.emu.history(id)).toEqual([
      { state: 'QUEUED', at: t0 },
      { state: 'PENDING', at: t0 + 100 },
      { state: 'CLAIMED', at: t0 + 200 },
      { state: 'INPROGRESS', at: t0 + 300 },
      { state: 'SUCCEEDED', at: t0 + 1300 },
    ]);
  });

  it('applies every due transition at its own time after a clock jump', async () => {
    const t = await start();
    const t0 = t.clock.now();
    const id = await createRun(t.api, { prompt: 'jump' });
    t.clock.advance(60_000);
    expect(await getState(t.api, id)).toBe('SUCCEEDED');
    expect(t.emu.history(id).map((h) => h.at - t0)).toEqual([0, 100, 200, 300, 1300]);
  });

  it('advances on its own in real time with small timings', async () => {
    const emu = await startRealTime({
      tickMs: 5,
      timings: { queuedMs: 20, pendingMs: 20, claimedMs: 20, runMs: 20 },
    });
    const api = createApi(emu.baseUrl, emu.apiKey);
    const id = await createRun(api, { prompt: 'real time' });
    const deadline = Date.now() + 3000;
    while (emu.runs.get(id)?.state !== 'SUCCEEDED' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(emu.history(id).map((h) => h.state)).toEqual([
      'QUEUED',
      'PENDING',
      'CLAIMED',
      'INPROGRESS',
      'SUCCEEDED',
    ]);
  });
});

describe('scripted outcomes', () => {
  const end =
    TEST_TIMINGS.queuedMs + TEST_TIMINGS.pendingMs + TEST_TIMINGS.claimedMs + TEST_TIMINGS.runMs;

  it.each([
    ['[fail]', 'FAILED', undefined],
    ['[error]', 'ERROR', 'internal_error'],
    ['[FAIL] in capitals', 'FAILED', undefined],
  ])('%s ends %s with a status_message', async (marker, state, code) => {
    const t = await start();
    const id = await createRun(t.api, { prompt: `Refactor ${marker}` });
    t.clock.advance(end);
    const run = (await t.api('GET', `/agent/runs/${id}`)).body;
    expect(run.state).toBe(state);
    expect(run.status_message).toMatchObject({ message: expect.any(String) });
    expect(run.status_message.error_code).toBe(code);
    expect(run.artifacts).toEqual([]);
    expect(run.run_time).toBe('PT1S');
  });

  it('[block] waits in BLOCKED with a question until a follow-up', async () => {
    const t = await start();
    const id = await createRun(t.api, { prompt: 'Migrate the DB [block]' });
    t.clock.advance(end + 60_000);
    const run = (await t.api('GET', `/agent/runs/${id}`)).body;
    expect(run.state).toBe('BLOCKED');
    expect(run.status_message.message).toMatch(/input/);
  });

  it('[slow] stays INPROGRESS for slowRunMs', async () => {
    const t = await start();
    const id = await createRun(t.api, { prompt: 'Big job [slow]' });
    t.clock.advance(end + 5000);
    expect(await getState(t.api, id)).toBe('INPROGRESS');
    t.clock.advance(TEST_TIMINGS.slowRunMs - TEST_TIMINGS.runMs - 5000);
    expect(await getState(t.api, id)).toBe('SUCCEEDED');
  });

  it('[pending] holds PENDING for slowRunMs', async () => {
    const t = await start();
    const id = await createRun(t.api, { prompt: 'Wait [pending]' });
    t.clock.advance(TEST_TIMINGS.queuedMs + TEST_TIMINGS.slowRunMs - 1);
    expect(await getState(t.api, id)).toBe('PENDING');
    t.clock.advance(1);
    expect(await getState(t.api, id)).toBe('CLAIMED');
  });
});

describe('forcing states', () => {
  it('advance() steps the script now and keeps going; setState() holds', async () => {
    const t = await start();
    const t0 = t.clock.now();
    const id = await createRun(t.api, { prompt: 'force' });
    t.clock.advance(10);
    expect(t.emu.advance(id)?.state).toBe('PENDING');
    expect(t.emu.history(id).at(-1)).toEqual({ state: 'PENDING', at: t0 + 10 });
    t.clock.advance(100);
    expect(await getState(t.api, id)).toBe('CLAIMED');
    expect(t.emu.setState(id, 'INPROGRESS')?.state).toBe('INPROGRESS');
    t.clock.advance(600_000);
    expect(await getState(t.api, id)).toBe('INPROGRESS');
    expect(t.emu.advance(id, 'SUCCEEDED')?.artifacts).toHaveLength(1);
    expect(t.emu.advance('unknown')).toBeUndefined();
  });

  it('keeps an unknown future state as-is', async () => {
    const t = await start();
    const id = await createRun(t.api, { prompt: 'future' });
    t.emu.setState(id, 'THINKING_HARD');
    t.clock.advance(600_000);
    expect(await getState(t.api, id)).toBe('THINKING_HARD');
  });

  it('drives states over the admin surface', async () => {
    const t = await start();
    const admin = createApi(t.emu.url + '/_emulator', t.emu.apiKey);
    const id = await createRun(t.api, { prompt: 'admin' });
    expect((await admin('POST', `/runs/${id}/advance`)).body.state).toBe('PENDING');
    expect((await admin('POST', `/runs/${id}/state`, { state: 'BLOCKED' })).body.state).toBe(
      'BLOCKED',
    );
    expect((await admin('POST', `/runs/${id}/state`, {})).status).toBe(400);
    const history = await admin('GET', `/runs/${id}/history`);
    expect(history.body.history.map((h: { state: string }) => h.state)).toEqual([
      'QUEUED',
      'PENDING',
      'BLOCKED',
    ]);
    expect((await admin('GET', '/runs/nope/history')).status).toBe(404);
  });
});

describe('phrases that script a run as markers do', () => {
  it('a prompt or follow-up with the words ends as the marker says; others as usual', async () => {
    const t = await start({
      phrases: { 'migrate the billing tables': '[fail]', 'rename the invoices': '[block]' },
    });
    const failing = await createRun(t.api, { prompt: 'Migrate the billing tables to v2' });
    const waiting = await createRun(t.api, { prompt: 'Rename the invoices module' });
    const plain = await createRun(t.api, { prompt: 'Tidy the CI config' });
    t.clock.advance(60_000);
    expect(await getState(t.api, failing)).toBe('FAILED');
    expect(await getState(t.api, waiting)).toBe('BLOCKED');
    expect(await getState(t.api, plain)).toBe('SUCCEEDED');
    // A follow-up is scripted by its own words.
    await t.api('POST', `/agent/runs/${plain}/followups`, {
      message: 'now migrate the billing tables too',
    });
    t.clock.advance(60_000);
    expect(await getState(t.api, plain)).toBe('FAILED');
  });
});
