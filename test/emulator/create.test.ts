import { describe, expect, it } from 'vitest';
import { RunItemSchema } from '../../src/agent/schemas.js';
import { startEmulator } from '../../src/emulator/index.js';
import { emulatorPerTest } from './helpers.js';

const ctx = emulatorPerTest();

describe('POST /agent/runs', () => {
  it('creates a QUEUED run with the full RunItem shape', async () => {
    const parent = await ctx.api('POST', '/agent/runs', { prompt: 'parent' });
    const parentId = parent.body.run_id as string;
    const res = await ctx.api('POST', '/agent/runs', {
      prompt: 'Fix the flaky login test\nIt fails on CI about once a day.',
      config: { name: 'nightly', model_id: 'claude-4', environment_id: 'env-1', extra_field: 7 },
      metadata: { relay_thread: 'slack:T1:C1:1.2', relay_request: 'req-1' },
      conversation_id: 'conv-9',
      parent_run_id: parentId,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ state: 'QUEUED' });
    const id = res.body.run_id as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const detail = await ctx.api('GET', `/agent/runs/${id}`);
    const run = RunItemSchema.parse(detail.body);
    const now = new Date(ctx.clock.now()).toISOString();
    expect(run).toMatchObject({
      run_id: id,
      title: 'Fix the flaky login test',
      state: 'QUEUED',
      created_at: now,
      updated_at: now,
      started_at: null,
      agent_config: {
        name: 'nightly',
        model_id: 'claude-4',
        environment_id: 'env-1',
        extra_field: 7,
      },
      creator: { display_name: 'API key', type: 'service_account' },
      // A run with a parent is an orchestration child (the published source type).
      source: 'ORCHESTRATION',
      metadata: { relay_thread: 'slack:T1:C1:1.2', relay_request: 'req-1' },
      conversation_id: 'conv-9',
      parent_run_id: parentId,
      root_run_id: parentId,
      is_run_type_cancellable: true,
      artifacts: [],
    });
    expect(run.session_link).toBe(`${ctx.emu.url}/sessions/${run.session_id}`);
  });

  it('serves the /agent/runs alias and keeps a given title', async () => {
    const res = await ctx.api('POST', '/agent/runs', { prompt: 'do it', title: 'My title' });
    expect(res.status).toBe(200);
    expect(ctx.emu.runs.get(res.body.run_id)?.title).toBe('My title');
    expect(ctx.emu.requests.get('POST /agent/runs')).toBe(1);
  });

  it('derives a bounded title from a long prompt and accepts a skill without a prompt', async () => {
    const long = await ctx.api('POST', '/agent/runs', { prompt: `  ${'word '.repeat(40)}` });
    expect(ctx.emu.runs.get(long.body.run_id)?.title.length).toBeLessThanOrEqual(80);
    const skill = await ctx.api('POST', '/agent/runs', { skill: 'acme/tools:release' });
    expect(skill.status).toBe(200);
    expect(ctx.emu.runs.get(skill.body.run_id)).toMatchObject({
      prompt: '',
      title: 'Run skill acme/tools:release',
    });
  });

  const tooMany = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v']));
  const invalid: [string, unknown, RegExp][] = [
    ['no prompt and no skill', { title: 't' }, /prompt is required/],
    ['a blank prompt', { prompt: '   ' }, /prompt is required/],
    ['an empty body', undefined, /JSON object/],
    ['a prompt that is not a string', { prompt: 42 }, /prompt/],
    ['more than 20 metadata keys', { prompt: 'p', metadata: tooMany }, /21 keys; at most 20/],
    ['a bad metadata key', { prompt: 'p', metadata: { 'bad key': 'v' } }, /"bad key".*A-Za-z0-9/],
    [
      'a 65-character metadata key',
      { prompt: 'p', metadata: { ['k'.repeat(65)]: 'v' } },
      /1-64 characters/,
    ],
    [
      'a metadata value over 256 bytes',
      { prompt: 'p', metadata: { k: 'é'.repeat(129) } },
      /258 bytes; at most 256/,
    ],
    [
      'a non-string metadata value',
      { prompt: 'p', metadata: { k: 1 } },
      /metadata value of k must be a string/,
    ],
    ['an unknown mode', { prompt: 'p', mode: 'turbo' }, /mode/],
    [
      'an MCP server with two transports',
      { prompt: 'p', config: { mcp_servers: { gh: { url: 'u', command: 'c' } } } },
      /mcp_servers\.gh needs exactly one/,
    ],
    ['a malformed skill_spec', { prompt: 'p', config: { skill_spec: 'no-colon' } }, /skill_spec/],
  ];
  it.each(invalid)(
    'rejects %s with 400 invalid_request naming the problem',
    async (_name, body, detail) => {
      const res = await ctx.api('POST', '/agent/runs', body);
      expect(res.status).toBe(400);
      expect(res.body.type).toMatch(/\/invalid_request$/);
      expect(res.body.detail).toMatch(detail);
      expect(ctx.emu.runs.count()).toBe(0);
    },
  );

  it('accepts exactly 20 keys, 64-character keys and 256-byte values', async () => {
    const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k.${i}_-`, 'v']));
    expect((await ctx.api('POST', '/agent/runs', { prompt: 'p', metadata: twenty })).status).toBe(
      200,
    );
    const edge = { ['k'.repeat(64)]: 'é'.repeat(128) };
    expect((await ctx.api('POST', '/agent/runs', { prompt: 'p', metadata: edge })).status).toBe(
      200,
    );
  });
});

describe('in-process creation', () => {
  it('createRunDirect validates like the API and can start in a chosen, held state', async () => {
    const run = ctx.emu.createRunDirect(
      { prompt: 'direct', metadata: { relay_request: 'd1' } },
      { state: 'INPROGRESS', manual: true },
    );
    expect(run).toMatchObject({ state: 'INPROGRESS', metadata: { relay_request: 'd1' } });
    ctx.clock.advance(600_000);
    expect((await ctx.api('GET', `/agent/runs/${run.run_id}`)).body.state).toBe('INPROGRESS');
    expect(() => ctx.emu.createRunDirect({ title: 'no prompt' })).toThrow(/prompt is required/);
  });

  it('rejects nonsense options at start', async () => {
    await expect(startEmulator({ timings: { runMs: -1 } })).rejects.toThrow(RangeError);
    await expect(startEmulator({ tickMs: 0 })).rejects.toThrow(RangeError);
  });
});

describe('GET /agent/runs/:id', () => {
  it('answers 404 resource_not_found for an unknown run', async () => {
    const res = await ctx.api('GET', '/agent/runs/does-not-exist');
    expect(res.status).toBe(404);
    expect(res.body.type).toMatch(/\/resource_not_found$/);
  });
});
