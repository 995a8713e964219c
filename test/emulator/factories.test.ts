import { afterEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { getState, startTestEmulator, TEST_TIMINGS, type Api } from './helpers.js';

let emu: Emulator | undefined;
afterEach(() => emu?.close());

async function start(factories?: { uid: string; name: string; alias?: string }[]): Promise<Api> {
  const t = await startTestEmulator(factories ? { factories } : {});
  emu = t.emu;
  return t.api;
}

describe('factories', () => {
  it('seeds demo factories with aliases docs and triage', async () => {
    const api = await start();
    const res = await api('GET', '/factory');
    expect(res.status).toBe(200);
    expect(res.body.factories.map((f: { alias: string }) => f.alias).sort()).toEqual([
      'docs',
      'triage',
    ]);
  });

  it('searches name or alias case-insensitively', async () => {
    const api = await start([
      { uid: 'f1', name: 'Docs Factory', alias: 'docs' },
      { uid: 'f2', name: 'Release Crew', alias: 'ship' },
      { uid: 'f3', name: 'No Alias' },
    ]);
    const search = async (q: string) =>
      (await api('GET', `/factory?search=${encodeURIComponent(q)}`)).body.factories.map(
        (f: { uid: string }) => f.uid,
      );
    expect(await search('DOCS')).toEqual(['f1']);
    expect(await search('Ship')).toEqual(['f2']);
    expect(await search('crew')).toEqual(['f2']);
    expect(await search('alias')).toEqual(['f3']);
    expect(await search('nothing')).toEqual([]);
    expect((await api('GET', '/factory/f3')).body).toMatchObject({
      uid: 'f3',
      name: 'No Alias',
      alias: null,
    });
    expect((await api('GET', '/factory/zzz')).status).toBe(404);
  });

  it('dispatches an ordinary run executed by the foreman', async () => {
    const api = await start();
    const res = await api('POST', '/factory/factory-docs/runs', {
      prompt: 'Document the retry policy',
      ticket_ref: 'linear:DOC-12',
      ticket_url: 'https://tracker.example/DOC-12',
      metadata: { relay_request: 'req-f' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      state: 'QUEUED',
      run_url: expect.stringContaining('/sessions/'),
    });
    const run = (await api('GET', `/agent/runs/${res.body.run_id}`)).body;
    expect(run).toMatchObject({
      title: 'Document the retry policy',
      agent_config: { name: 'Docs Factory' },
      executor: { display_name: 'Docs Factory foreman', type: 'service_account' },
      creator: { display_name: 'API key' },
      trigger_url: 'https://tracker.example/DOC-12',
      metadata: { relay_request: 'req-f' },
    });
    expect(run.session_link).toBe(res.body.run_url);
    const filtered = await api('GET', '/agent/runs?name=Docs%20Factory');
    expect(filtered.body.runs.map((r: { run_id: string }) => r.run_id)).toEqual([res.body.run_id]);
    // follow-ups and cancel use the ordinary run endpoints
    expect(
      (await api('POST', `/agent/runs/${res.body.run_id}/followups`, { message: 'more' })).status,
    ).toBe(200);
    expect((await api('POST', `/agent/runs/${res.body.run_id}/cancel`)).status).toBe(200);
    expect(await getState(api, res.body.run_id)).toBe('CANCELLED');
  });

  it('validates the dispatch body and the factory', async () => {
    const api = await start();
    expect((await api('POST', '/factory/factory-docs/runs', {})).body.detail).toMatch(/prompt/);
    expect(
      (await api('POST', '/factory/factory-docs/runs', { prompt: 'p', title: 5 })).status,
    ).toBe(400);
    expect((await api('POST', '/factory/nope/runs', { prompt: 'p' })).status).toBe(404);
    expect(emu?.runs.count()).toBe(0);
  });

  it('applies prompt markers to dispatched runs', async () => {
    const t = await startTestEmulator();
    emu = t.emu;
    const res = await t.api('POST', '/factory/factory-triage/runs', { prompt: 'triage [fail]' });
    t.clock.advance(
      TEST_TIMINGS.queuedMs + TEST_TIMINGS.pendingMs + TEST_TIMINGS.claimedMs + TEST_TIMINGS.runMs,
    );
    expect(await getState(t.api, res.body.run_id)).toBe('FAILED');
  });
});
