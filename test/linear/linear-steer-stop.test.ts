/**
 * `config steer=requester` on Linear: a Stop is steering, so in a team that set it only the
 * person who started the run stops it; anyone else's Stop leaves the run working.
 */
import { describe, expect, it } from 'vitest';
import { startLinearWorld } from '../helpers/linear.js';
import { worldPerTest } from '../helpers/world-per-test.js';

const startWorld = worldPerTest(startLinearWorld);

describe('Linear: Stop under config steer=requester', () => {
  it("someone else's Stop is refused and the run goes on; the requester's stops it", async () => {
    const world = await startWorld();
    const { linear, emulator } = world;
    // Ada is an admin of the workspace: she keeps the team's runs to their requesters.
    const set = await world.configureTeam('steer=requester');
    expect(set.content.body).toContain('steer');

    const { session } = await linear.openSession({ title: 'Long job [slow]' });
    await world.waitForActivity(session.id, (a) => a.content.body === 'Running…');
    const told = await world.answerTo(
      session.id,
      '',
      { signal: 'stop', user: { id: 'user-bob' } },
      (a) => (a.content.body ?? '').includes('steer=requester'),
    );
    expect(told.content.body).toContain('goes on');
    expect(emulator.requests.get('POST /agent/runs/:id/interrupt') ?? 0).toBe(0);
    expect(emulator.requests.get('POST /agent/runs/:id/cancel') ?? 0).toBe(0);
    const run = emulator.runs.all().find((r) => r.prompt?.includes('Long job'))!;
    expect(run.state).toBe('INPROGRESS');

    await linear.prompt(session.id, '', { signal: 'stop', user: { id: 'user-ada' } });
    await world.waitForActivity(session.id, (a) =>
      (a.content.body ?? '').includes('stopped the agent'),
    );
    expect(emulator.requests.get('POST /agent/runs/:id/interrupt')).toBe(1);
  });
});
