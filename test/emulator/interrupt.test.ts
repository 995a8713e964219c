import { describe, expect, it } from 'vitest';
import { createAgentClient } from '../../src/agent/index.js';
import { isServiceError } from '../../src/core/ports/index.js';
import {
  INTERRUPT_REFUSALS,
  InterruptAcceptedSchema,
} from '../contract/published-schemas/interrupt.js';
import { PublishedError } from '../contract/published-schemas/problem-error.js';
import { createRun, emulatorPerTest, getState, TEST_TIMINGS } from './helpers.js';

const ctx = emulatorPerTest();

/** From creation to INPROGRESS with the test timings. */
const TO_RUNNING = TEST_TIMINGS.queuedMs + TEST_TIMINGS.pendingMs + TEST_TIMINGS.claimedMs;
const END = TO_RUNNING + TEST_TIMINGS.runMs;

function problem(res: { status: number; headers: Headers; body: unknown }, status: number) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
  return PublishedError.parse(res.body);
}

describe('POST /agent/runs/:id/interrupt', () => {
  it('stops a running turn: 202, and the run waits for a follow-up instead of finishing', async () => {
    const id = await createRun(ctx.api, { prompt: 'refactor the parser' });
    ctx.clock.advance(TO_RUNNING + 10);
    expect(await getState(ctx.api, id)).toBe('INPROGRESS');
    const res = await ctx.api('POST', `/agent/runs/${id}/interrupt`);
    expect(res.status).toBe(202);
    expect(InterruptAcceptedSchema.parse(res.body)).toEqual({ run_id: id, state: 'BLOCKED' });
    // Long past the time it would have succeeded, it still waits.
    ctx.clock.advance(END * 3);
    const run = (await ctx.api('GET', `/agent/runs/${id}`)).body;
    expect(run.state).toBe('BLOCKED');
    expect(run.status_message.message).toMatch(/interrupted/i);
    // A follow-up continues the same run.
    const followup = await ctx.api('POST', `/agent/runs/${id}/followups`, { message: 'go on' });
    expect(followup.status).toBe(200);
    ctx.clock.advance(END);
    expect(await getState(ctx.api, id)).toBe('SUCCEEDED');
  });

  it('interrupts a CLAIMED run too (its turn is starting)', async () => {
    const id = await createRun(ctx.api, { prompt: 'p' });
    ctx.clock.advance(TEST_TIMINGS.queuedMs + TEST_TIMINGS.pendingMs + 10);
    expect(await getState(ctx.api, id)).toBe('CLAIMED');
    expect((await ctx.api('POST', `/agent/runs/${id}/interrupt`)).status).toBe(202);
    expect(await getState(ctx.api, id)).toBe('BLOCKED');
  });

  it('refuses with the published error shape: ended 400, not started 409, wrong kind 422, unknown 404', async () => {
    const ended = await createRun(ctx.api, { prompt: 'quick' });
    const other = await createRun(ctx.api, { prompt: 'self-hosted [nocancel]' });
    ctx.clock.advance(END + 10);
    expect(await getState(ctx.api, ended)).toBe('SUCCEEDED');
    const fresh = await createRun(ctx.api, { prompt: 'just made' });
    const a = problem(
      await ctx.api('POST', `/agent/runs/${ended}/interrupt`),
      INTERRUPT_REFUSALS.noTurnRunning,
    );
    expect(a.retryable).toBe(false);
    const b = problem(
      await ctx.api('POST', `/agent/runs/${fresh}/interrupt`),
      INTERRUPT_REFUSALS.notStartedYet,
    );
    expect(b.retryable).toBe(true);
    expect(await getState(ctx.api, fresh)).toBe('QUEUED');
    ctx.emu.setState(other, 'INPROGRESS');
    problem(
      await ctx.api('POST', `/agent/runs/${other}/interrupt`),
      INTERRUPT_REFUSALS.notInterruptible,
    );
    expect(await getState(ctx.api, other)).toBe('INPROGRESS');
    problem(await ctx.api('POST', '/agent/runs/nope/interrupt'), INTERRUPT_REFUSALS.unknownRun);
  });

  it('a second interrupt of the same run is refused: it already waits', async () => {
    const id = await createRun(ctx.api, { prompt: 'p' });
    ctx.clock.advance(TO_RUNNING + 10);
    expect((await ctx.api('POST', `/agent/runs/${id}/interrupt`)).status).toBe(202);
    problem(await ctx.api('POST', `/agent/runs/${id}/interrupt`), INTERRUPT_REFUSALS.noTurnRunning);
  });

  it('the client sends it and reads the refusals as service errors with stable codes', async () => {
    const client = createAgentClient({
      baseUrl: ctx.emu.baseUrl,
      apiKey: ctx.emu.apiKey,
      clock: ctx.clock,
      maxRetries: 0,
      timeoutMs: 5000,
    });
    const id = await createRun(ctx.api, { prompt: 'p' });
    const early = await client.interruptRun(id).catch((err: unknown) => err);
    expect(isServiceError(early) && early.code).toBe('conflict');
    ctx.clock.advance(TO_RUNNING + 10);
    await expect(client.interruptRun(id)).resolves.toBeUndefined();
    expect(ctx.emu.requests.get('POST /agent/runs/:id/interrupt')).toBe(2);
    const again = await client.interruptRun(id).catch((err: unknown) => err);
    expect(isServiceError(again) && again.code).toBe('bad_request');
  });
});
