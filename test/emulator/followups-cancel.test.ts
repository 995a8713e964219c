import { describe, expect, it } from 'vitest';
import { createApi, createRun, getState, emulatorPerTest, TEST_TIMINGS } from './helpers.js';

const ctx = emulatorPerTest();

const END =
  TEST_TIMINGS.queuedMs + TEST_TIMINGS.pendingMs + TEST_TIMINGS.claimedMs + TEST_TIMINGS.runMs;

describe('POST /agent/runs/:id/followups', () => {
  it('records a follow-up on a live run without restarting it', async () => {
    const id = await createRun(ctx.api, { prompt: 'live' });
    ctx.clock.advance(150);
    const res = await ctx.api('POST', `/agent/runs/${id}/followups`, {
      message: 'also fix the docs',
      mode: 'plan',
    });
    expect(res.status).toBe(200);
    // The published answer: the follow-up's id and what became of it (the run is PENDING).
    expect(res.body).toEqual({ followup_id: expect.any(String), outcome: 'queue_pending' });
    expect(ctx.emu.followups).toEqual([
      {
        followupId: res.body.followup_id,
        runId: id,
        message: 'also fix the docs',
        mode: 'plan',
        at: ctx.clock.now(),
      },
    ]);
    expect(ctx.emu.history(id).map((h) => h.state)).toEqual(['QUEUED', 'PENDING']);
  });

  it('restarts an ended run: QUEUED again, then on to the outcome the follow-up scripts', async () => {
    const id = await createRun(ctx.api, { prompt: 'first pass' });
    ctx.clock.advance(END);
    expect(await getState(ctx.api, id)).toBe('SUCCEEDED');
    const t1 = ctx.clock.now();
    const answer = await ctx.api('POST', `/agent/runs/${id}/followups`, {
      message: 'now break it [fail]',
    });
    expect(answer.body.outcome).toBe('handoff_execution');
    const run = (await ctx.api('GET', `/agent/runs/${id}`)).body;
    expect(run).toMatchObject({
      state: 'QUEUED',
      updated_at: new Date(t1).toISOString(),
      started_at: null,
    });
    // run_time is cumulative: the first execution's second stays counted.
    expect(run.run_time).toBe('PT1S');
    expect(run.finished_at).toBeNull();
    ctx.clock.advance(END);
    const after = (await ctx.api('GET', `/agent/runs/${id}`)).body;
    expect(after.state).toBe('FAILED');
    expect(after.run_time).toBe('PT2S');
    expect(after.finished_at).toBe(new Date(ctx.clock.now()).toISOString());
    // The agent gave up: no platform error code (the published list has none for it).
    expect(after.status_message.error_code).toBeUndefined();
    expect(after.artifacts).toHaveLength(1);
  });

  it('moves a BLOCKED run on, and the original markers do not carry over', async () => {
    const id = await createRun(ctx.api, { prompt: 'ask me [block]' });
    ctx.clock.advance(END);
    expect(await getState(ctx.api, id)).toBe('BLOCKED');
    await ctx.api('POST', `/agent/runs/${id}/followups`, { message: 'take option B' });
    expect(await getState(ctx.api, id)).toBe('QUEUED');
    ctx.clock.advance(END);
    const run = (await ctx.api('GET', `/agent/runs/${id}`)).body;
    expect(run.state).toBe('SUCCEEDED');
    expect(run.status_message).toBeUndefined();
  });

  it('validates the body and the run', async () => {
    const id = await createRun(ctx.api, { prompt: 'p' });
    expect((await ctx.api('POST', `/agent/runs/${id}/followups`, {})).body.detail).toMatch(
      /message/,
    );
    expect((await ctx.api('POST', `/agent/runs/${id}/followups`, { message: ' ' })).status).toBe(
      400,
    );
    expect(
      (await ctx.api('POST', `/agent/runs/${id}/followups`, { message: 'm', mode: 'x' })).status,
    ).toBe(400);
    expect((await ctx.api('POST', '/agent/runs/nope/followups', { message: 'm' })).status).toBe(
      404,
    );
    expect(ctx.emu.followups).toHaveLength(0);
  });
});

describe('POST /agent/runs/:id/cancel', () => {
  async function runIn(state: string, prompt = 'cancel me'): Promise<string> {
    const id = await createRun(ctx.api, { prompt });
    if (state !== 'QUEUED') ctx.emu.setState(id, state);
    return id;
  }

  it.each(['QUEUED', 'CLAIMED', 'INPROGRESS'])(
    'cancels a %s run: 200 with the run id as a JSON string',
    async (state) => {
      const id = await runIn(state);
      const res = await ctx.api('POST', `/agent/runs/${id}/cancel`);
      expect(res.status).toBe(200);
      expect(res.text).toBe(JSON.stringify(id));
      const run = (await ctx.api('GET', `/agent/runs/${id}`)).body;
      expect(run.state).toBe('CANCELLED');
      expect(typeof run.run_time).toBe('string');
      ctx.clock.advance(600_000);
      expect(await getState(ctx.api, id)).toBe('CANCELLED');
    },
  );

  it('answers 409 conflict (retryable) while PENDING, and cancels once it moves on', async () => {
    const id = await createRun(ctx.api, { prompt: 'hold [pending]' });
    ctx.clock.advance(TEST_TIMINGS.queuedMs);
    const res = await ctx.api('POST', `/agent/runs/${id}/cancel`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ retryable: true });
    expect(res.body.type).toMatch(/\/conflict$/);
    expect(await getState(ctx.api, id)).toBe('PENDING');
    ctx.clock.advance(TEST_TIMINGS.slowRunMs);
    expect((await ctx.api('POST', `/agent/runs/${id}/cancel`)).status).toBe(200);
  });

  it.each(['SUCCEEDED', 'FAILED', 'ERROR', 'CANCELLED'])(
    'answers 400 for a %s run',
    async (state) => {
      const id = await runIn(state);
      const res = await ctx.api('POST', `/agent/runs/${id}/cancel`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ retryable: false });
      expect(res.body.detail).toContain(state);
      expect(await getState(ctx.api, id)).toBe(state);
    },
  );

  it('answers 404 for an unknown run and 422 for a non-cancellable one', async () => {
    expect((await ctx.api('POST', '/agent/runs/nope/cancel')).status).toBe(404);
    const id = await createRun(ctx.api, { prompt: 'keep going [nocancel]' });
    expect((await ctx.api('GET', `/agent/runs/${id}`)).body.is_run_type_cancellable).toBe(false);
    const res = await ctx.api('POST', `/agent/runs/${id}/cancel`);
    expect(res.status).toBe(422);
    expect(res.body.type).toMatch(/\/operation_not_supported$/);
    expect(await getState(ctx.api, id)).toBe('QUEUED');
  });

  it('is counted per route template', async () => {
    const id = await runIn('QUEUED');
    await ctx.api('POST', `/agent/runs/${id}/cancel`);
    await createApi(ctx.emu.baseUrl, 'wrong')('POST', `/agent/runs/${id}/cancel`);
    expect(ctx.emu.requests.get('POST /agent/runs/:id/cancel')).toBe(2);
  });
});
