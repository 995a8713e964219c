/**
 * The emulator, asked directly, behaves as the published description says for what the relay
 * relies on: every list filter is applied (and a parameter it does not know is refused, never
 * answered with every run), `sort_by=agent`, a create with only a skill, child runs that
 * inherit their parent's metadata, error codes only from the published list, whole-second
 * `run_time`, `finished_at` / `root_run_id` / pull-request `status`. Each answer is also
 * checked against our schemas of the published shapes.
 */
import { describe, expect, it } from 'vitest';
import { emulatorPerTest, type ApiResponse } from '../emulator/helpers.js';
import { checkPublished, type PublishedName } from './published-schemas/index.js';
import { PLATFORM_ERROR_CODES } from './published-schemas/common.js';

const ctx = emulatorPerTest();
const TO_END = 1300;

/** One exchange; its answer must conform to `schema` (or to Error when not 2xx). */
async function call(
  method: string,
  path: string,
  body: unknown,
  schema: PublishedName,
): Promise<ApiResponse> {
  const res = await ctx.api(method, path, body);
  const expected = res.status >= 200 && res.status < 300 ? schema : 'Error';
  expect(checkPublished(expected, res.body), `${method} ${path} -> ${res.status}`).toEqual([]);
  return res;
}

const create = async (body: Record<string, unknown>): Promise<string> => {
  const res = await call('POST', '/agent/runs', body, 'RunAgentResponse');
  expect(res.status).toBe(200);
  return res.body.run_id as string;
};
const getRun = async (id: string) =>
  (await call('GET', `/agent/runs/${id}`, undefined, 'RunItem')).body;
const list = async (query: string): Promise<string[]> => {
  const res = await call('GET', `/agent/runs?limit=100&${query}`, undefined, 'ListRunsResponse');
  expect(res.status, res.body?.detail).toBe(200);
  return (res.body.runs as { run_id: string }[]).map((r) => r.run_id).sort();
};
const refused = async (query: string) => {
  const res = await call('GET', `/agent/runs?${query}`, undefined, 'ListRunsResponse');
  expect(res.status).toBe(400);
  expect(res.body.type).toMatch(/\/invalid_request$/);
  return res.body.detail as string;
};

describe('list filters', () => {
  it('applies environment, skill, artifact type, ancestor, source, execution location, factory', async () => {
    const a = await create({ prompt: 'a', config: { environment_id: 'env-a' } });
    const b = await create({ config: { skill_spec: 'acme/tools:release' } });
    const c = await create({ prompt: 'c', parent_run_id: a });
    const d = await create({ prompt: 'd', parent_run_id: c });
    const f = (
      await call(
        'POST',
        '/factory/factory-docs/runs',
        { prompt: 'f' },
        'DispatchFactoryRunResponse',
      )
    ).body.run_id as string;
    const sorted = (...ids: string[]) => [...ids].sort();

    expect(await list('environment_id=env-a')).toEqual([a]);
    expect(await list('environment_id=empty-environment')).toEqual(sorted(b, c, d, f));
    expect(await list('skill_spec=acme%2Ftools%3Arelease')).toEqual([b]);
    expect(await list('skill=acme%2Ftools%3Arelease')).toEqual([b]);
    expect(await list(`ancestor_run_id=${a}`)).toEqual(sorted(c, d));
    expect(await list(`ancestor_run_id=${c}`)).toEqual([d]);
    expect(await list('source=ORCHESTRATION')).toEqual(sorted(c, d));
    expect(await list('source=ORCHESTRATION&source=API')).toEqual(sorted(a, b, c, d, f));
    expect(await list('execution_location=LOCAL')).toEqual([]);
    expect(await list('execution_location=REMOTE')).toHaveLength(5);
    expect(await list('factory_uid=factory-docs')).toEqual([f]);
    expect(await list('factory_only=true')).toEqual([f]);
    expect(await list('artifact_type=PULL_REQUEST')).toEqual([]);
    ctx.clock.advance(TO_END);
    expect(await list('artifact_type=PULL_REQUEST')).toEqual(sorted(a, b, c, d, f));
    expect(await list('artifact_type=PLAN')).toEqual([]);
  });

  it('refuses what it does not know instead of answering with every run', async () => {
    await create({ prompt: 'one' });
    expect(await refused('environment=env-a')).toMatch(/unknown query parameter "environment"/);
    expect(await refused('stamp=req-1')).toMatch(/"stamp"/);
    expect(await refused('name=a&name=b')).toMatch(/name is given more than once/);
    expect(await refused('state=DONE')).toMatch(/state "DONE"/);
    expect(await refused('source=EMAIL')).toMatch(/source "EMAIL"/);
    expect(await refused('artifact_type=VIDEO')).toMatch(/artifact_type/);
    expect(await refused('sort_by=priority')).toMatch(/sort_by/);
    const six = [1, 2, 3, 4, 5, 6].map((i) => `metadata[k${i}]=v`).join('&');
    expect(await refused(six)).toMatch(/at most 5 metadata pairs/);
    const five = [1, 2, 3, 4, 5].map((i) => `metadata[k${i}]=v`).join('&');
    expect(await list(five)).toEqual([]);
  });

  it('sorts by agent: by skill, runs without one last', async () => {
    const none = await create({ prompt: 'no skill' });
    const z = await create({ config: { skill_spec: 'acme/tools:zeta' } });
    const a = await create({ config: { skill_spec: 'acme/tools:alpha' } });
    const res = await call(
      'GET',
      '/agent/runs?sort_by=agent&sort_order=asc',
      undefined,
      'ListRunsResponse',
    );
    expect(res.status).toBe(200);
    expect((res.body.runs as { run_id: string }[]).map((r) => r.run_id)).toEqual([a, z, none]);
  });
});

describe('create', () => {
  it('accepts only config.skill_spec; refuses neither prompt nor skill, a NUL in metadata, an unknown parent', async () => {
    const id = await create({ config: { skill_spec: 'acme/tools:release' } });
    expect((await getRun(id)).agent_config).toEqual({ skill_spec: 'acme/tools:release' });
    expect((await call('POST', '/agent/runs', { title: 't' }, 'RunAgentResponse')).status).toBe(
      400,
    );
    const nul = await call(
      'POST',
      '/agent/runs',
      { prompt: 'p', metadata: { k: 'a\u0000b' } },
      'RunAgentResponse',
    );
    expect(nul.status).toBe(400);
    expect(nul.body.detail).toMatch(/must not contain NUL/);
    const orphan = await call(
      'POST',
      '/agent/runs',
      { prompt: 'p', parent_run_id: 'nope' },
      'RunAgentResponse',
    );
    expect(orphan.status).toBe(400);
    expect(orphan.body.detail).toMatch(/parent/);
  });

  it('copies the parent metadata to a child; explicit keys win; the root is the top of the tree', async () => {
    const top = await create({ prompt: 'top', metadata: { relay_request: 'req-1', team: 'a' } });
    const child = await create({ prompt: 'c', parent_run_id: top, metadata: { team: 'b' } });
    const grandchild = await create({ prompt: 'g', parent_run_id: child });
    expect(await getRun(child)).toMatchObject({
      metadata: { relay_request: 'req-1', team: 'b' },
      parent_run_id: top,
      root_run_id: top,
      source: 'ORCHESTRATION',
    });
    expect(await getRun(grandchild)).toMatchObject({
      metadata: { relay_request: 'req-1', team: 'b' },
      root_run_id: top,
    });
    const root = await getRun(top);
    expect(root.root_run_id).toBe(top);
    expect(root.parent_run_id).toBeUndefined();
    expect(await list('metadata[relay_request]=req-1')).toEqual([top, child, grandchild].sort());
  });
});

describe('run fields', () => {
  it('finished_at is null while live and set when ended; run_time is whole seconds and cumulative', async () => {
    const id = await create({ prompt: 'work' });
    const live = await getRun(id);
    expect(live.finished_at).toBeNull();
    expect(live.run_time).toBeUndefined();
    ctx.clock.advance(TO_END);
    const ended = await getRun(id);
    expect(ended.state).toBe('SUCCEEDED');
    expect(ended.finished_at).toBe(new Date(ctx.clock.now()).toISOString());
    expect(ended.run_time).toBe('PT1S');
    expect(ended.artifacts).toEqual([
      expect.objectContaining({
        artifact_type: 'PULL_REQUEST',
        data: expect.objectContaining({ status: 'open' }),
      }),
    ]);

    const followup = await ctx.api('POST', `/agent/runs/${id}/followups`, {
      message: 'more [slow]',
    });
    expect(followup.status).toBe(200);
    expect((await getRun(id)).finished_at).toBeNull();
    ctx.clock.advance(10_500);
    const again = await getRun(id);
    expect(again.state).toBe('SUCCEEDED');
    // 1 s before plus 10 s now, in whole seconds.
    expect(again.run_time).toBe('PT11S');
    expect(again.run_time).toMatch(/^PT(\d+H)?(\d+M)?\d+S$/);
  });

  it.each(['FAILED', 'ERROR', 'BLOCKED', 'CANCELLED', 'SUCCEEDED'])(
    'a %s run carries an error code only from the published list',
    async (state) => {
      const id = await create({ prompt: 'p' });
      ctx.emu.setState(id, state);
      const run = await getRun(id);
      const code = run.status_message?.error_code as string | undefined;
      if (code !== undefined) expect(PLATFORM_ERROR_CODES).toContain(code);
      expect(code).not.toBe('task_failed');
    },
  );

  it('the scripted outcomes carry published codes too', async () => {
    const failed = await create({ prompt: 'x [fail]' });
    const errored = await create({ prompt: 'y [error]' });
    ctx.clock.advance(TO_END);
    expect((await getRun(failed)).status_message.error_code).toBeUndefined();
    expect((await getRun(errored)).status_message).toMatchObject({
      error_code: 'internal_error',
      retryable: true,
    });
  });
});

describe('factories and errors', () => {
  it('answers factories in their published shape', async () => {
    const page = await call('GET', '/factory?limit=1', undefined, 'ListFactoriesResponse');
    expect(page.body.page_info).toMatchObject({
      has_next_page: true,
      next_cursor: expect.any(String),
    });
    await call('GET', '/factory/factory-docs', undefined, 'Factory');
    const bad = await call(
      'POST',
      '/factory/factory-docs/runs',
      { prompt: 'p', ticket_ref: 'acme/app#1' },
      'DispatchFactoryRunResponse',
    );
    expect(bad.status).toBe(400);
    const res = await call(
      'POST',
      '/factory/factory-docs/runs',
      { prompt: 'p', ticket_ref: 'github:acme/app#1' },
      'DispatchFactoryRunResponse',
    );
    expect(res.body).toMatchObject({
      factory_uid: 'factory-docs',
      ticket_ref: 'github:acme/app#1',
    });
    expect((await getRun(res.body.run_id)).metadata).toMatchObject({
      ticket_source: 'github',
      ticket_id: 'acme/app#1',
    });
  });

  it('every refusal is a problem body with the published type URI', async () => {
    const missing = await call('GET', '/agent/runs/nope', undefined, 'RunItem');
    expect(missing.status).toBe(404);
    expect(missing.body.type).toBe(
      'https://docs.warp.dev/reference/api-and-sdk/troubleshooting/errors/resource_not_found',
    );
    ctx.emu.faults.failNext(1, 503);
    expect((await call('GET', '/agent/runs', undefined, 'ListRunsResponse')).status).toBe(503);
  });
});
