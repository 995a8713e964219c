/**
 * The catalogue endpoints: the emulator's answers checked against the published shapes
 * (published-schemas/), the client's reading of them, and the cache in front of them.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgentClient, type AgentClient } from '../../src/agent/index.js';
import {
  CATALOGUE_FAILURE_TTL_MS,
  CATALOGUE_TTL_MS,
  createCachedCatalogue,
} from '../../src/agent/catalogue-cache.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { createRecordingLogger } from '../helpers/test-logger.js';
import { PublishedListEnvironmentsResponse } from './published-schemas/environments.js';
import { PublishedListModelsResponse } from './published-schemas/models.js';

let emu: Emulator;
let client: AgentClient;

beforeEach(async () => {
  emu = await startEmulator();
  client = createAgentClient({ baseUrl: emu.baseUrl, apiKey: emu.apiKey, maxRetries: 0 });
});
afterEach(() => emu.close());

async function getJson(path: string, auth = true): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${emu.baseUrl}${path}`, {
    headers: auth ? { authorization: `Bearer ${emu.apiKey}` } : {},
  });
  return { status: res.status, body: await res.json() };
}

const everyField = {
  environments: [
    {
      uid: 'env-full',
      name: 'Full',
      repos: ['octo-org/widgets', 'octo-org/gears'],
      description: 'every optional field',
      lastUpdated: Date.parse('2026-01-02T03:04:05Z'),
      setupFailed: true,
    },
    { uid: 'env-bare', name: '', repos: [] },
  ],
  models: [
    {
      id: 'm-full',
      displayName: 'Full Model',
      provider: 'OPENAI' as const,
      visionSupported: true,
      reasoningLevel: 'high',
      description: 'every optional field',
      disableReason: 'PROVIDER_OUTAGE' as const,
    },
    { id: 'm-bare', displayName: 'Bare', provider: 'UNKNOWN' as const },
  ],
  defaultModelId: 'm-bare',
};

describe('the emulator answers as published', () => {
  it('GET /agent/environments and GET /agent/models, seeded', async () => {
    const envs = await getJson('/agent/environments');
    expect(envs.status).toBe(200);
    const parsedEnvs = PublishedListEnvironmentsResponse.parse(envs.body);
    expect(parsedEnvs.environments.length).toBeGreaterThanOrEqual(3);
    const models = await getJson('/agent/models');
    expect(models.status).toBe(200);
    const parsedModels = PublishedListModelsResponse.parse(models.body);
    expect(parsedModels.models.map((m) => m.id)).toContain(parsedModels.default_model_id);
  });

  it('with every optional field set, through the admin route', async () => {
    const res = await fetch(`${emu.url}/_emulator/catalogue`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(everyField),
    });
    expect(res.status).toBe(200);
    const envs = PublishedListEnvironmentsResponse.parse(
      (await getJson('/agent/environments')).body,
    );
    expect(envs.environments[0]).toMatchObject({
      uid: 'env-full',
      config: {
        name: 'Full',
        description: 'every optional field',
        github_repos: [
          { owner: 'octo-org', repo: 'widgets' },
          { owner: 'octo-org', repo: 'gears' },
        ],
      },
      last_updated: '2026-01-02T03:04:05.000Z',
      setup_failed: true,
    });
    const models = PublishedListModelsResponse.parse((await getJson('/agent/models')).body);
    expect(models).toEqual({
      default_model_id: 'm-bare',
      models: [
        {
          id: 'm-full',
          display_name: 'Full Model',
          provider: 'OPENAI',
          vision_supported: true,
          reasoning_level: 'high',
          description: 'every optional field',
          disable_reason: 'PROVIDER_OUTAGE',
        },
        { id: 'm-bare', display_name: 'Bare', provider: 'UNKNOWN', vision_supported: false },
      ],
    });
  });

  it('sorts by name or by last update, refuses another sort, and wants the key', async () => {
    emu.catalogue.set({
      environments: [
        { uid: 'b', name: 'Beta', repos: [], lastUpdated: 2_000 },
        { uid: 'a', name: 'Alpha', repos: [], lastUpdated: 1_000 },
        { uid: 'c', name: 'Gamma', repos: [], lastUpdated: 3_000 },
      ],
    });
    const uids = async (q: string) =>
      PublishedListEnvironmentsResponse.parse(
        (await getJson(`/agent/environments${q}`)).body,
      ).environments.map((e) => e.uid);
    expect(await uids('')).toEqual(['c', 'b', 'a']);
    expect(await uids('?sort_by=last_updated')).toEqual(['c', 'b', 'a']);
    expect(await uids('?sort_by=name')).toEqual(['a', 'b', 'c']);
    expect((await getJson('/agent/environments?sort_by=size')).status).toBe(400);
    expect((await getJson('/agent/environments', false)).status).toBe(401);
    expect((await getJson('/agent/models', false)).status).toBe(401);
  });

  it('the admin route refuses a malformed catalogue and keeps the old one', async () => {
    const res = await fetch(`${emu.url}/_emulator/catalogue`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ environments: [{ uid: 'x', name: 'X', repos: ['not a repo'] }] }),
    });
    expect(res.status).toBe(400);
    expect(emu.catalogue.get().environments.map((e) => e.uid)).not.toContain('x');
  });
});

describe('the client reads them', () => {
  it('lists environments and models in the published shape', async () => {
    emu.catalogue.set(everyField);
    const envs = await client.listEnvironments();
    expect(envs.map((e) => e.uid)).toEqual(['env-full', 'env-bare']);
    expect(envs[0]?.config.github_repos).toEqual([
      { owner: 'octo-org', repo: 'widgets' },
      { owner: 'octo-org', repo: 'gears' },
    ]);
    const models = await client.listModels();
    expect(models.default_model_id).toBe('m-bare');
    expect(models.models.map((m) => m.id)).toEqual(['m-full', 'm-bare']);
    expect(emu.requests.get('GET /agent/environments')).toBe(1);
    expect(emu.requests.get('GET /agent/models')).toBe(1);
  });
});

describe('the catalogue cache', () => {
  let now = 0;
  const clock = { now: () => now };

  it('asks once for a burst, again after the minute, and maps to names and repositories', async () => {
    emu.catalogue.set(everyField);
    const logger = createRecordingLogger();
    const catalogue = createCachedCatalogue({ source: client, clock, logger });
    const burst = await Promise.all(Array.from({ length: 5 }, () => catalogue.environments()));
    await catalogue.environments();
    expect(emu.requests.get('GET /agent/environments')).toBe(1);
    expect(burst[0]?.[0]).toEqual({
      id: 'env-full',
      name: 'Full',
      repos: ['octo-org/widgets', 'octo-org/gears'],
    });
    expect(await catalogue.models()).toEqual([
      { id: 'm-full', name: 'Full Model', disabledReason: 'PROVIDER_OUTAGE' },
      { id: 'm-bare', name: 'Bare' },
    ]);
    now += CATALOGUE_TTL_MS - 1;
    await catalogue.environments();
    expect(emu.requests.get('GET /agent/environments')).toBe(1);
    now += 1;
    await catalogue.environments();
    expect(emu.requests.get('GET /agent/environments')).toBe(2);
  });

  it('a service error answers undefined (send as given), is logged, and is remembered briefly', async () => {
    const logger = createRecordingLogger();
    const catalogue = createCachedCatalogue({ source: client, clock, logger });
    emu.faults.failNext(1, 503, { route: 'GET /agent/environments' });
    expect(await catalogue.environments()).toBeUndefined();
    expect(
      logger.lines.some((e) => e.level === 'warn' && /catalogue unavailable/.test(e.msg ?? '')),
    ).toBe(true);
    expect(await catalogue.environments()).toBeUndefined();
    expect(emu.requests.get('GET /agent/environments')).toBe(1);
    now += CATALOGUE_FAILURE_TTL_MS;
    expect((await catalogue.environments())?.length).toBeGreaterThan(0);
    expect(emu.requests.get('GET /agent/environments')).toBe(2);
  });
});
