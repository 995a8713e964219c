/**
 * Linear end to end against the fake Linear API and the emulator: a session opened by
 * delegating an issue (or mentioning the app) starts a run, and the run's life comes back as
 * agent activities in that session.
 */
import { describe, expect, it } from 'vitest';
import { leakedSecrets } from '../helpers/secrets.js';
import { startLinearWorld, type LinearWorld } from '../helpers/linear.js';
import { worldPerTest } from '../helpers/world-per-test.js';

const startWorld = worldPerTest(startLinearWorld, (w) => {
  expect(leakedSecrets(w.logs.text())).toEqual([]);
  expect(w.logs.text()).not.toContain(w.linear.workspaces[0]!.token);
});

const types = (w: LinearWorld, session: string) =>
  w.linear.activitiesOf(session).map((a) => a.content.type);

describe('Linear: delegate an issue to the agent', () => {
  it('thinks at once, runs, moves the issue to started, and answers with the links', async () => {
    const world = await startWorld();
    const { linear } = world;
    const { session, sent } = await linear.openSession({
      title: 'Fix the flaky login test',
      stateType: 'unstarted',
    });
    expect(sent.status).toBe(200);
    const first = await world.waitForActivity(session.id, () => true);
    expect(first.content).toEqual({ type: 'thought', body: 'Starting a cloud agent run…' });
    expect(first.ephemeral).toBe(false);
    // Linear marks an agent unresponsive after 10 s; the relay answers well within 3 s.
    expect(first.at - session.createdAt).toBeLessThan(3_000);

    const done = await world.waitForActivity(session.id, (a) => a.content.type === 'response');
    expect(done.content.body).toContain('Done: **ENG-1: Fix the flaky login test**');
    expect(done.content.body).toMatch(/\[Session\]\(http:\/\/127\.0\.0\.1:\d+\/sessions\//);
    expect(done.content.body).toMatch(/\[PR: [^\]]+\]\(https?:\/\/[^)]+\/pull\/\d+\)/);
    // Progress in between, ephemeral, and nothing after the response.
    const all = linear.activitiesOf(session.id);
    expect(all.some((a) => a.ephemeral && a.content.type === 'thought')).toBe(true);
    expect(all.at(-1)!.id).toBe(done.id);

    // The session points at the run's session page; the issue moved to the first started
    // state (lowest position), never closed.
    const stored = linear.sessions.get(session.id)!;
    expect(stored.externalUrls).toEqual([
      { label: 'Cloud agent session', url: expect.stringMatching(/\/sessions\//) },
    ]);
    const issue = linear.issues.get(session.issueId)!;
    expect(issue.stateId).toBe('eng-progress');
    expect(linear.issueUpdates).toHaveLength(1);

    // The run was created with the issue's context, stamped like every run.
    const run = world.emulator.runs.all()[0]!;
    expect(run.title).toBe('ENG-1: Fix the flaky login test');
    expect(run.metadata).toMatchObject({
      relay_platform: 'linear',
      relay_thread: `linear:org-acme:team-eng:${session.id}`,
    });
  });

  it('asks with an elicitation when BLOCKED, follows up on the answer, and errors with advice on failure', async () => {
    const world = await startWorld();
    const { linear } = world;
    const { session } = await linear.openSession({ title: 'Decide the schema [block]' });
    const asked = await world.waitForActivity(session.id, (a) => a.content.type === 'elicitation');
    // The agent's own question (its conversation's last words), not the service's status line.
    expect(asked.content.body).toContain('Should I keep the old function as a deprecated alias');

    const sent = await linear.prompt(session.id, 'Use the second option [fail]');
    expect(sent.status).toBe(200);
    const failed = await world.waitForActivity(session.id, (a) => a.content.type === 'error');
    expect(failed.content.body).toContain('Failed: **ENG-1: Decide the schema');
    expect(failed.content.body).toContain('reply here to try again');
    // One run: the follow-up went to it.
    expect(world.emulator.runs.count()).toBe(1);
    expect(world.emulator.followups).toHaveLength(1);
  });

  it('a mention in a comment starts a run without touching the issue state', async () => {
    const world = await startWorld();
    const { linear } = world;
    const { session } = await linear.openSession({
      how: 'mention',
      title: 'Docs are out of date',
      comment: '@agent please update the README',
    });
    await world.waitForActivity(session.id, (a) => a.content.type === 'response');
    expect(linear.issueUpdates).toEqual([]);
    const run = world.emulator.runs.all()[0]!;
    expect(run.prompt ?? '').toContain('please update the README');
    expect(run.prompt ?? '').toContain('<issue identifier="ENG-1">');
  });

  it('Stop interrupts a working run, ends the turn with a response, and a reply continues it', async () => {
    const world = await startWorld();
    const { linear, emulator } = world;
    const { session } = await linear.openSession({ title: 'Long job [slow]' });
    await world.waitForActivity(session.id, (a) => a.content.body === 'Running…');
    const sent = await linear.prompt(session.id, '', { signal: 'stop', user: { id: 'user-ada' } });
    expect(sent.status).toBe(200);
    const final = await world.waitForActivity(
      session.id,
      (a) => a.content.type === 'response' && (a.content.body ?? '').includes('stopped the agent'),
    );
    // Linear names who sent the signal, and so does the answer.
    expect(final.content.body).toMatch(/^\*\*Ada\*\* stopped the agent\. Reply in this thread/);
    const run = emulator.runs.all()[0]!;
    expect(emulator.requests.get('POST /agent/runs/:id/interrupt')).toBe(1);
    expect(emulator.requests.get('POST /agent/runs/:id/cancel') ?? 0).toBe(0);
    expect(run.state).toBe('BLOCKED');
    // The relay has seen the run wait (its BLOCKED episode is answered) and wrote nothing
    // after the stop's response: no elicitation asks what the response already said.
    const store = world.relay.service.store;
    for (let i = 0; (await store.runs.get(run.run_id))?.notifiedState !== 'BLOCKED'; i++) {
      if (i > 250) throw new Error('the relay never saw the run wait');
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(linear.activitiesOf(session.id).at(-1)!.id).toBe(final.id);
    expect(types(world, session.id)).not.toContain('elicitation');

    await linear.prompt(session.id, 'go on, but keep the old API');
    const done = await world.waitForActivity(
      session.id,
      (a) => a.content.type === 'response' && (a.content.body ?? '').startsWith('Done'),
    );
    expect(done.content.body).toContain('Done: **ENG-1: Long job');
    expect(emulator.runs.count()).toBe(1);
    expect(emulator.followups).toHaveLength(1);
  });

  it('Stop on a run that waits for input cancels it and ends with a response', async () => {
    const world = await startWorld();
    const { linear, emulator } = world;
    const { session } = await linear.openSession({ title: 'Decide the schema [block]' });
    await world.waitForActivity(session.id, (a) => a.content.type === 'elicitation');
    const sent = await linear.prompt(session.id, '', { signal: 'stop' });
    expect(sent.status).toBe(200);
    const told = await world.waitForActivity(
      session.id,
      (a) => a.content.type === 'response' && (a.content.body ?? '').includes('cancelled'),
    );
    expect(told.content.body).toContain('it could not be interrupted');
    const final = await world.waitForActivity(
      session.id,
      (a) => a.content.type === 'response' && (a.content.body ?? '').startsWith('Cancelled'),
    );
    expect(final.content.body).toContain('Cancelled: **ENG-1: Decide the schema');
    expect(emulator.runs.all()[0]!.state).toBe('CANCELLED');
    expect(types(world, session.id)).not.toContain('error');
  });

  it('a message after the run ended follows up on it; list answers in the session with the runs of its team', async () => {
    const world = await startWorld();
    const { linear } = world;
    const session = await world.answeredSession('Tidy the logs');
    await world.answeredSession('Another issue');

    await linear.prompt(session.id, 'Also remove the debug lines');
    await world.waitForActivity(
      session.id,
      (a) =>
        a.content.type === 'response' &&
        a !== linear.activitiesOf(session.id).find((b) => b.content.type === 'response'),
    );
    expect(world.emulator.runs.count()).toBe(2);
    expect(world.emulator.followups).toHaveLength(1);
    expect(world.emulator.followups[0]!.message).toContain('Also remove the debug lines');

    const listed = await world.answerTo(session.id, 'list');
    // Both runs of the team, the place of these sessions.
    expect(listed.content.body).toContain('Tidy the logs');
    expect(listed.content.body).toContain('Another issue');
  });
});
