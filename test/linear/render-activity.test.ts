/** How messages read as Linear agent activities. */
import { describe, expect, it } from 'vitest';
import { notice } from '../../src/core/message/render-model.js';
import { toRunView } from '../../src/core/message/run-view.js';
import { escapeMarkdown, renderActivity } from '../../src/linear/render/render-activity.js';

const view = (state: string) =>
  toRunView({
    run: { run_id: 'r1', title: 'Fix *it*', state, session_link: 'https://agent.test/s/r1' },
  });

describe('Linear activities', () => {
  it('answers status with a thought while the run is live (a response would end the turn)', () => {
    expect(
      renderActivity({ type: 'run_brief', run: view('INPROGRESS'), hasCard: true }),
    ).toMatchObject({
      content: { type: 'thought' },
    });
    const ended = renderActivity({ type: 'run_brief', run: view('SUCCEEDED'), hasCard: true });
    expect(ended?.content.type).toBe('response');
    // The session link once, not twice.
    expect(ended?.content).toMatchObject({ body: expect.not.stringContaining('[Session]') });
  });

  it('escapes Markdown in text that is not ours', () => {
    expect(escapeMarkdown('a *b* [c](d) `e` <f>')).toBe('a \\*b\\* \\[c\\](d) \\`e\\` \\<f\\>');
    // A service message that starts a line with a marker shows it, not a heading or a list.
    expect(escapeMarkdown('# Machine lost\n- retry later\n2. or cancel')).toBe(
      '\\# Machine lost\n\\- retry later\n2\\. or cancel',
    );
    const shown = renderActivity(notice('error', 'bad [link](javascript:x)'));
    expect(shown).toEqual({ content: { type: 'error', body: 'bad \\[link\\](javascript:x)' } });
  });

  it('Stop’s confirmation ends the turn as a response, naming who stopped; other notices are thoughts', () => {
    const ada = { platform: 'linear' as const, id: 'u1', name: 'Ada *L*' };
    const text = 'stopped the agent: it was interrupted.';
    expect(renderActivity({ ...notice('info', text, undefined, ada), closing: true })).toEqual({
      content: { type: 'response', body: '**Ada \\*L\\*** stopped the agent: it was interrupted.' },
    });
    const nameless = { platform: 'linear' as const, id: 'u1' };
    expect(renderActivity({ ...notice('info', text, undefined, nameless), closing: true })).toEqual(
      {
        content: { type: 'response', body: 'Stopped the agent: it was interrupted.' },
      },
    );
    expect(renderActivity(notice('info', 'Working on it'))).toEqual({
      content: { type: 'thought', body: 'Working on it' },
    });
  });

  it('says nothing on a status edit of an ended or BLOCKED run: its outcome is its own activity', () => {
    for (const state of ['SUCCEEDED', 'FAILED', 'BLOCKED'])
      expect(renderActivity({ type: 'run_status', run: view(state) })).toBeUndefined();
    expect(renderActivity({ type: 'run_status', run: view('INPROGRESS') })).toEqual({
      content: { type: 'thought', body: 'Running…' },
      ephemeral: true,
    });
  });
});

describe('Linear outcomes', () => {
  const ended = (state: string, extra: Partial<ReturnType<typeof view>> = {}) => ({
    ...view(state),
    ...extra,
  });

  it("carry the agent's own words, made safe, and the cost when reported", () => {
    const done = renderActivity({
      type: 'run_outcome',
      run: ended('SUCCEEDED', {
        agentMessage: 'Fixed **it**. <img src=x> See [docs](javascript:alert(1)).',
        usage: { costUsd: 1.24, tokens: 312_000 },
      }),
    });
    expect(done?.content.type).toBe('response');
    const body = (done?.content as { body: string }).body;
    expect(body).toContain('Fixed **it**.');
    expect(body).toContain('Used about $1.24 · 312k tokens');
    expect(body).toContain('\\<img src=x\\>'); // shown as text, never markup
    expect(body).not.toContain('](javascript:');
  });

  it("asks the agent's own question when BLOCKED, else the status line", () => {
    const asked = renderActivity({
      type: 'run_outcome',
      run: ended('BLOCKED', { agentMessage: 'Keep the alias?', statusMessage: 'Needs input' }),
    });
    expect(asked?.content).toMatchObject({
      type: 'elicitation',
      body: expect.stringMatching(/^Keep the alias\?/),
    });
    const fallback = renderActivity({
      type: 'run_outcome',
      run: ended('BLOCKED', { statusMessage: 'Needs input' }),
    });
    expect(fallback?.content).toMatchObject({ body: expect.stringMatching(/^Needs input/) });
  });

  it("shows the service's status line beside the agent's question when it says something else", () => {
    const both = renderActivity({
      type: 'run_outcome',
      run: ended('BLOCKED', {
        agentMessage: 'Shall I push?',
        statusMessage: 'Waiting for approval of git push',
      }),
    });
    const body = (both?.content as { body: string }).body;
    expect(body).toMatch(/^Shall I push\?/);
    expect(body).toContain('Waiting for approval of git push');
    const same = renderActivity({
      type: 'run_outcome',
      run: ended('BLOCKED', { agentMessage: 'Shall I push?', statusMessage: 'Shall I push?' }),
    });
    expect((same?.content as { body: string }).body.match(/Shall I push/g)).toHaveLength(1);
  });

  it('shows no usage and no words when none were reported', () => {
    const done = renderActivity({ type: 'run_outcome', run: ended('SUCCEEDED') });
    expect((done?.content as { body: string }).body).not.toMatch(/Used|\$|tokens/);
  });
});
