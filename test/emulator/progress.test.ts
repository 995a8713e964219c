/**
 * The emulator's conversation and timeline, and where a follow-up goes: every answer checked
 * against the published shapes (test/contract/published-schemas), on a manual clock.
 */
import { describe, expect, it } from 'vitest';
import { PublishedConversationResponse } from '../contract/published-schemas/conversation.js';
import { PublishedFollowupResponse } from '../contract/published-schemas/followup.js';
import { PublishedTimelineResponse } from '../contract/published-schemas/timeline.js';
import { createRun, emulatorPerTest, TEST_TIMINGS } from './helpers.js';

const ctx = emulatorPerTest();
const SETUP = TEST_TIMINGS.queuedMs + TEST_TIMINGS.pendingMs + TEST_TIMINGS.claimedMs;

interface Block {
  type: string;
  name?: string;
  state?: string;
  text?: string;
}
type Steps = { messages: { role: string; content: Block[] }[] }[];

async function conversation(id: string) {
  const res = await ctx.api('GET', `/agent/runs/${id}/conversation`);
  if (res.status === 200) PublishedConversationResponse.parse(res.body);
  return res;
}

function blocks(body: { steps: Steps }): Block[] {
  return body.steps.flatMap((s) => s.messages.flatMap((m) => m.content));
}

describe('GET /agent/runs/:id/conversation', () => {
  it('has none before the agent starts, then steps appear while it runs, then its final words', async () => {
    const id = await createRun(ctx.api, { prompt: 'Tidy the README' });
    expect((await conversation(id)).status).toBe(404);
    ctx.clock.advance(SETUP + 1);
    const early = await conversation(id);
    expect(early.status).toBe(200);
    expect(blocks(early.body).filter((b) => b.type === 'action')).toHaveLength(1);
    expect(blocks(early.body).some((b) => b.type === 'action_result')).toBe(false);

    ctx.clock.advance(TEST_TIMINGS.runMs / 2);
    const middle = blocks((await conversation(id)).body);
    expect(middle.filter((b) => b.type === 'action').length).toBeGreaterThan(1);
    expect(
      middle.filter((b) => b.type === 'action_result').every((b) => b.state === 'completed'),
    ).toBe(true);

    ctx.clock.advance(TEST_TIMINGS.runMs);
    const done = blocks((await conversation(id)).body);
    expect(done.at(-1)).toMatchObject({
      type: 'text',
      text: expect.stringContaining('pull request'),
    });
    expect(done.filter((b) => b.type === 'action')).toHaveLength(3);
  });

  it('a failed run says why and its last step failed; a BLOCKED run asks its question', async () => {
    const failed = await createRun(ctx.api, { prompt: 'Break it [fail]' });
    const blocked = await createRun(ctx.api, { prompt: 'Ask me [block]' });
    ctx.clock.advance(SETUP + TEST_TIMINGS.runMs + 1);
    const f = blocks((await conversation(failed)).body);
    expect(f.filter((b) => b.type === 'action_result').at(-1)?.state).toBe('failed');
    expect(f.at(-1)?.text).toMatch(/stopped after three attempts/);
    const b = blocks((await conversation(blocked)).body);
    expect(b.at(-1)?.text).toMatch(/\?/);
  });

  it('answers 404 for a run without a conversation and 422 for an unsupported one', async () => {
    const none = await createRun(ctx.api, { prompt: 'quiet [noconvo]' });
    const other = await createRun(ctx.api, { prompt: 'elsewhere [harness]' });
    ctx.clock.advance(SETUP + 10);
    expect((await conversation(none)).status).toBe(404);
    const unsupported = await conversation(other);
    expect(unsupported.status).toBe(422);
    expect(unsupported.body.type).toMatch(/operation_not_supported$/);
    expect((await conversation('no-such-run')).status).toBe(404);
  });

  it('a follow-up that resumes an ended run opens a new step with its message', async () => {
    const id = await createRun(ctx.api, { prompt: 'first' });
    ctx.clock.advance(SETUP + TEST_TIMINGS.runMs + 1);
    await ctx.api('POST', `/agent/runs/${id}/followups`, { message: 'and the docs' });
    ctx.clock.advance(SETUP + 1);
    const res = await conversation(id);
    expect(res.body.steps).toHaveLength(2);
    expect(res.body.steps[1].messages[0]).toMatchObject({
      role: 'user',
      content: [{ type: 'text', text: 'and the docs' }],
    });
  });
});

describe('GET /agent/runs/:id/timeline', () => {
  it('tells set-up as it happens: created, claimed, container ready, agent started, done', async () => {
    const id = await createRun(ctx.api, { prompt: 'Tidy' });
    const types = async () => {
      const res = await ctx.api('GET', `/agent/runs/${id}/timeline`);
      expect(res.status).toBe(200);
      return PublishedTimelineResponse.parse(res.body).events.map((e) => e.event_type);
    };
    expect(await types()).toEqual(['oz_run_created']);
    ctx.clock.advance(
      TEST_TIMINGS.queuedMs + TEST_TIMINGS.pendingMs + TEST_TIMINGS.claimedMs / 2 + 1,
    );
    expect(await types()).toEqual(['oz_run_created', 'oz_run_claimed', 'worker_container_ready']);
    ctx.clock.advance(TEST_TIMINGS.claimedMs / 2 + TEST_TIMINGS.runMs);
    expect(await types()).toEqual([
      'oz_run_created',
      'oz_run_claimed',
      'worker_container_ready',
      'shared_session_started',
      'agent_started',
      'oz_run_done',
    ]);
  });
});

describe('POST /agent/runs/:id/followups outcome', () => {
  it('says where the message went by the state it found', async () => {
    const id = await createRun(ctx.api, { prompt: 'Tidy' });
    const outcomes: string[] = [];
    const send = async () => {
      const res = await ctx.api('POST', `/agent/runs/${id}/followups`, { message: 'note' });
      outcomes.push(PublishedFollowupResponse.parse(res.body).outcome);
    };
    await send(); // QUEUED
    ctx.clock.advance(TEST_TIMINGS.queuedMs + TEST_TIMINGS.pendingMs + 1);
    await send(); // CLAIMED
    ctx.clock.advance(TEST_TIMINGS.claimedMs);
    await send(); // INPROGRESS
    ctx.clock.advance(TEST_TIMINGS.runMs);
    await send(); // SUCCEEDED: a new execution
    expect(outcomes).toEqual([
      'queue_pending',
      'queued_prompt',
      'live_session',
      'handoff_execution',
    ]);
  });
});
