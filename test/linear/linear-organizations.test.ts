/**
 * Whose webhooks the relay takes: every event's workspace (organization) is checked, not only
 * an install. A workspace the relay holds no token of, or one off LINEAR_ALLOWED_ORGANIZATIONS,
 * starts nothing and is told nothing, even with a valid signature; a team is matched within
 * its workspace, so another workspace's team of the same key does not pass.
 */
import { describe, expect, it } from 'vitest';
import { countRows } from '../helpers/relay.js';
import { startLinearWorld, type LinearWorld } from '../helpers/linear.js';
import { worldPerTest } from '../helpers/world-per-test.js';

const startWorld = worldPerTest(startLinearWorld);

const quiet = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Walk the browser's way through the install of a workspace (index). */
async function install(w: LinearWorld, workspace: number): Promise<number> {
  w.linear.authorizeAs(workspace);
  const start = await fetch(`${w.relay.service.url}/linear/install`, { redirect: 'manual' });
  const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0]!;
  const consent = await fetch(start.headers.get('location')!, { redirect: 'manual' });
  const back = consent.headers.get('location')!;
  return (await fetch(back, { redirect: 'manual', headers: { cookie } })).status;
}

describe('Linear: the workspace of every webhook', () => {
  it("one workspace: another workspace's signed event, with a team of an allowed key, starts nothing", async () => {
    const world = await startWorld({ env: { LINEAR_ALLOWED_TEAMS: 'ENG' } });
    const { linear } = world;
    // Globex names its team ENG too, and asks for a model of its own choosing.
    linear.workspaces[1]!.team.key = 'ENG';
    const { session, sent } = await linear.openSession({
      workspace: 1,
      title: 'model=expensive do my work',
    });
    expect(sent.status).toBe(200);
    expect(sent.answer).toMatchObject({ ok: true, result: 'refused' });
    await quiet(300);
    expect(world.emulator.runs.count()).toBe(0);
    expect(countRows(world.relay.databasePath)).toMatchObject({ inbox: 0, runs: 0 });
    expect(linear.activitiesOf(session.id)).toEqual([]);
    expect(world.logs.text()).toContain('a workspace the relay does not serve');
    // The token's own workspace is served as before.
    await world.answeredSession('ours');
    expect(world.emulator.runs.count()).toBe(1);
  });

  it('one workspace: LINEAR_ALLOWED_ORGANIZATIONS is checked on every event', async () => {
    const world = await startWorld({ env: { LINEAR_ALLOWED_ORGANIZATIONS: 'org-elsewhere' } });
    const { sent } = await world.linear.openSession({ title: 'not on the list' });
    expect(sent.answer).toMatchObject({ result: 'refused' });
    await quiet(300);
    expect(world.emulator.runs.count()).toBe(0);
    expect(countRows(world.relay.databasePath).inbox).toBe(0);
  });

  it('OAuth: a workspace that installed nothing, or was taken off the list, starts nothing', async () => {
    const world = await startWorld({ oauthOrganizations: ['org-acme'] });
    expect(await install(world, 0)).toBe(200);
    expect(await install(world, 1)).toBe(403);
    const { linear } = world;
    const foreign = await linear.openSession({ workspace: 1, title: 'not installed' });
    expect(foreign.sent.answer).toMatchObject({ result: 'refused' });
    await quiet(300);
    expect(world.emulator.runs.count()).toBe(0);
    expect(countRows(world.relay.databasePath).inbox).toBe(0);
    await world.answeredSession('ours');
    expect(world.emulator.runs.count()).toBe(1);
  });

  it('matches an allowed team within its workspace: `org-acme/ENG` lets Acme in and not Globex', async () => {
    const world = await startWorld({
      oauthOrganizations: ['org-acme', 'org-globex'],
      env: { LINEAR_ALLOWED_TEAMS: 'org-acme/ENG' },
    });
    expect(await install(world, 0)).toBe(200);
    expect(await install(world, 1)).toBe(200);
    const { linear } = world;
    linear.workspaces[1]!.team.key = 'ENG';
    const globex = await linear.openSession({ workspace: 1, title: 'same key, other workspace' });
    expect(globex.sent.answer).toMatchObject({ result: 'refused' });
    await world.answeredSession('ours');
    expect(world.emulator.runs.count()).toBe(1);
  });

  it('answers 503 when Linear cannot say whose workspace it is, and stores nothing', async () => {
    const world = await startWorld({ oauthOrganizations: ['org-acme'] });
    expect(await install(world, 0)).toBe(200);
    world.linear.failNext(500, 10);
    const { sent } = await world.linear.openSession({ title: 'later' });
    expect(sent.status).toBe(503);
    expect(countRows(world.relay.databasePath).inbox).toBe(0);
  });
});
