/**
 * `config steer=requester` on Linear: a Stop is steering, so in a team that set it only the
 * person who started the run stops it; anyone else's Stop leaves the run working.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startLinearWorld, type LinearWorld } from '../helpers/linear.js';

let world: LinearWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('Linear: Stop under config steer=requester', () => {
  it("someone else's Stop is refused and the run goes on; the requester's stops it", async () => {
    world = await startLinearWorld();
    const { linear, emulator } = world;
    const first = await linear.openSession({ title: 'settings' });
    await world.waitForActivity(first.session.id, (a) => a.content.type === 'response');
    // Ada is an admin of the workspace: she keeps the team's runs to their requesters.
    await linear.prompt(first.session.id, 'config steer=requester');
    await world.waitForActivity(first.session.id, (a) => (a.content.body ?? '').includes('steer'));

    const { session } = await linear.openSession({ title: 'Long job [slow]' });
    await world.waitForActivity(session.id, (a) => a.content.body === 'Running…');
    const before = linear.activitiesOf(session.id).length;
    await linear.prompt(session.id, '', { signal: 'stop', user: { id: 'user-bob' } });
    const told = await world.waitForActivity(
      session.id,
      (a) =>
        linear.activitiesOf(session.id).indexOf(a) >= before &&
        (a.content.body ?? '').includes('steer=requester'),
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
