/**
 * `/agent stop` on GitHub, through the running relay with signed webhooks: the thread's run is
 * interrupted (it waits for a reply, which continues it), never cancelled while the agent is
 * working; someone without write access cannot stop it. Against a service without the
 * interrupt endpoint (it is not in the published API description) Stop cancels the run and
 * says why, rather than claiming the run does not exist.
 */
import { describe, expect, it } from 'vitest';
import { commentEvent } from '../github/fixtures.js';
import { waitUntil } from '../helpers/wait-until.js';
import { relayPerTest, type Relay } from '../helpers/relay.js';

const start = relayPerTest();

const comment = (login: string, association: string, text: string) =>
  commentEvent('issues', 42, login, association, text);

async function send(r: Relay, c: ReturnType<typeof comment>): Promise<void> {
  const res = await r.postGitHub(c.body, c.delivery);
  expect([200, 202]).toContain(res.status);
}

const stateIs = (r: Relay, runId: string, state: string) =>
  waitUntil(() => (r.emulator.runs.get(runId)?.state === state ? true : undefined), {
    timeoutMs: 8_000,
    message: `run ${state}`,
  });

describe('GitHub: /agent stop', () => {
  it('interrupts the running agent; a comment says so; the next comment continues the same run', async () => {
    const r = await start();
    await send(r, comment('alice', 'MEMBER', '@agent-relay rewrite the parser [slow]'));
    const run = await waitUntil(() => r.emulator.runs.all()[0], { timeoutMs: 5_000 });
    await stateIs(r, run.run_id, 'INPROGRESS');
    await send(r, comment('alice', 'MEMBER', '/agent stop'));
    await stateIs(r, run.run_id, 'BLOCKED');
    expect(r.emulator.requests.get('POST /agent/runs/:id/interrupt')).toBe(1);
    expect(r.emulator.requests.get('POST /agent/runs/:id/cancel')).toBe(0);
    const said = await waitUntil(() =>
      [...r.github.comments.values()].find((c) => /stopped the agent/.test(c.body)),
    );
    expect(said.body).toContain('@alice');
    expect(said.body).toMatch(/@alice stopped the agent\. Reply in this thread to continue\./);

    await send(r, comment('alice', 'MEMBER', '@agent-relay go on, keep the old API'));
    await stateIs(r, run.run_id, 'SUCCEEDED');
    expect(r.emulator.runs.all()).toHaveLength(1);
  });

  it('someone with read access only cannot stop it', async () => {
    const r = await start();
    r.github.setPermission('octo-org', 'widgets', 'rita', 'read');
    await send(r, comment('alice', 'MEMBER', '@agent-relay a long job [slow]'));
    const run = await waitUntil(() => r.emulator.runs.all()[0], { timeoutMs: 5_000 });
    await stateIs(r, run.run_id, 'INPROGRESS');
    await send(r, comment('rita', 'COLLABORATOR', '@agent-relay stop'));
    await waitUntil(() => [...r.github.comments.values()].find((c) => c.body.includes('@rita ')));
    expect(r.emulator.requests.get('POST /agent/runs/:id/interrupt')).toBe(0);
    expect(r.emulator.runs.get(run.run_id)?.state).toBe('INPROGRESS');
  });

  it('against a service without interrupt, cancels the run and says why; an unknown run is still unknown', async () => {
    const r = await start({ noInterrupt: true });
    await send(r, comment('alice', 'MEMBER', '@agent-relay rewrite the parser [slow]'));
    const run = await waitUntil(() => r.emulator.runs.all()[0], { timeoutMs: 5_000 });
    await stateIs(r, run.run_id, 'INPROGRESS');
    await send(r, comment('alice', 'MEMBER', '/agent stop'));
    await stateIs(r, run.run_id, 'CANCELLED');
    const said = await waitUntil(() =>
      [...r.github.comments.values()].find((c) => /stopped the run/.test(c.body)),
    );
    expect(said.body).toContain('cannot interrupt');
    const all = () => [...r.github.comments.values()].map((c) => c.body).join('\n');
    expect(all()).not.toContain('has no run');

    await send(r, comment('alice', 'MEMBER', '/agent stop nosuchrun'));
    await waitUntil(() =>
      [...r.github.comments.values()].find((c) => c.body.includes('has no run nosuchrun')),
    );
  });
});
