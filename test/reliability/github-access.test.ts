/**
 * GitHub access, attacked through the running service with real-shaped signed webhooks: an
 * `author_association` of COLLABORATOR or MEMBER does not mean write access (GitHub's
 * collaborator permission endpoint, on the fake GitHub API, says what the person may), and
 * refusals to outsiders never delay the people the relay serves: they are told once per
 * thread and hour (remembered in the database) and travel behind everyone else's notices.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commentEvent } from '../github/fixtures.js';
import { waitUntil } from '../helpers/wait-until.js';
import { relayPerTest, startRelay } from '../helpers/relay.js';
import type { Relay } from '../helpers/relay.js';
import { REFUSALS_PER_PLACE } from '../../src/core/place.js';
import { ACCESS_ATTEMPTS } from '../../src/runs/use-cases/check-access.js';

const start = relayPerTest();
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

/** A comment on octo-org/widgets (issue 42 unless `issue`) by `login`, addressed to the bot. */
const comment = (login: string, association: string, text: string, issue = 42) =>
  commentEvent('issues', issue, login, association, text);

async function send(r: Relay, c: ReturnType<typeof comment>): Promise<Record<string, unknown>> {
  const res = await r.postGitHub(c.body, c.delivery);
  expect([200, 202]).toContain(res.status);
  return (await res.json()) as Record<string, unknown>;
}

/** Requests to the service other than reads (create, follow-up, cancel). */
function serviceWrites(r: Relay): Record<string, number> {
  return Object.fromEntries(
    Object.entries(r.emulator.requests.snapshot()).filter(([route]) => route.startsWith('POST ')),
  );
}

const commentsTo = (r: Relay, login: string) =>
  [...r.github.comments.values()].filter((c) => c.body.includes(`@${login} `));

/** GitHub answers 502 to the next `times` reads of alice's permission on the repository. */
function permissionLookupFails(r: Relay, times: number): void {
  r.github.failNext({
    method: 'GET',
    path: /\/collaborators\/alice\/permission$/,
    status: 502,
    times,
  });
}

describe('GitHub: repository access, not author_association', () => {
  it("a read-only collaborator cannot cancel a member's run; the member can", async () => {
    const r = await start();
    r.github.setPermission('octo-org', 'widgets', 'rita', 'read');
    await send(r, comment('alice', 'MEMBER', '@agent-relay a long job [slow]'));
    const run = await waitUntil(() => r.emulator.runs.all()[0], { timeoutMs: 5_000 });

    for (const text of ['@agent-relay cancel', `@agent-relay cancel ${run.run_id}`]) {
      // COLLABORATOR passes the association filter: the ingress takes it in.
      expect(await send(r, comment('rita', 'COLLABORATOR', text))).toMatchObject({
        result: 'accepted',
      });
    }
    const refusal = await waitUntil(() => commentsTo(r, 'rita')[0], { timeoutMs: 5_000 });
    expect(refusal.body).toContain('only by people with write access');
    await settle();
    expect(commentsTo(r, 'rita')).toHaveLength(1); // told once in this thread, not per attempt
    expect(r.emulator.requests.get('POST /agent/runs/:id/cancel')).toBe(0);
    expect(r.emulator.runs.get(run.run_id)?.state).not.toBe('CANCELLED');
    expect(r.github.permissionLookups).toContain('octo-org/widgets:rita');

    await send(r, comment('alice', 'MEMBER', '@agent-relay cancel'));
    await waitUntil(() => r.emulator.runs.get(run.run_id)?.state === 'CANCELLED', {
      timeoutMs: 8_000,
    });
  });

  it.each([
    ['start (an issue with no run)', '@agent-relay fix the flaky test', 43],
    ['follow-up', '@agent-relay also update the changelog', 42],
    ['cancel', '@agent-relay cancel', 42],
    ['config', '@agent-relay config model=big', 42],
    ['list', '@agent-relay list', 42],
    ['status', '@agent-relay status', 42],
  ])(
    'a MEMBER with only triage access is refused for %s; nothing reaches the service',
    async (_what, text, issue) => {
      const r = await start({ timings: { slowRunMs: 30_000 } });
      r.github.setPermission('octo-org', 'widgets', 'tom', 'triage');
      // A run in issue 42, so that a follow-up, cancel, list and status have one to act on.
      await send(r, comment('alice', 'MEMBER', '@agent-relay a long job [slow]'));
      await waitUntil(() => r.emulator.runs.count() === 1, { timeoutMs: 5_000 });
      await waitUntil(() => r.github.comments.size === 1, { timeoutMs: 5_000 });
      const writes = serviceWrites(r);
      const posted = r.github.requests.length;
      expect(await send(r, comment('tom', 'MEMBER', text, issue))).toMatchObject({
        result: 'accepted',
      });
      const refusal = await waitUntil(() => commentsTo(r, 'tom')[0], { timeoutMs: 5_000 });
      expect(refusal.body).toContain('only by people with write access');
      await settle();
      expect(serviceWrites(r)).toEqual(writes);
      expect(r.emulator.runs.count()).toBe(1);
      // The refusal is the one comment posted: no run list, status, settings or start reply.
      const newComments = r.github.requests
        .slice(posted)
        .filter((q) => q.method === 'POST' && q.path.endsWith('/comments'));
      expect(newComments).toHaveLength(1);
    },
  );

  it('with the default write minimum, maintain and admin pass; triage and read do not', async () => {
    const r = await start();
    r.github.setPermission('octo-org', 'widgets', 'mia', 'maintain');
    r.github.setPermission('octo-org', 'widgets', 'ada', 'admin');
    r.github.setPermission('octo-org', 'widgets', 'tom', 'triage');
    r.github.setPermission('octo-org', 'widgets', 'rita', 'read');
    await send(r, comment('mia', 'COLLABORATOR', '@agent-relay fix one', 43));
    await send(r, comment('ada', 'MEMBER', '@agent-relay fix two', 44));
    await send(r, comment('tom', 'MEMBER', '@agent-relay fix three', 45));
    await send(r, comment('rita', 'COLLABORATOR', '@agent-relay fix four', 46));
    await waitUntil(() => commentsTo(r, 'tom').length + commentsTo(r, 'rita').length === 2, {
      timeoutMs: 5_000,
    });
    await waitUntil(() => r.emulator.runs.count() === 2, { timeoutMs: 5_000 });
    await settle();
    expect(r.emulator.runs.count()).toBe(2);
    const refused = (login: string) =>
      commentsTo(r, login).filter((c) => c.body.includes('only by people with write access'));
    expect([refused('mia'), refused('ada')]).toEqual([[], []]);
    expect([refused('tom').length, refused('rita').length]).toEqual([1, 1]);
  });

  it('GITHUB_MIN_PERMISSION=triage lets a triager start a run, not a reader', async () => {
    const r = await start({ env: { GITHUB_MIN_PERMISSION: 'triage' } });
    r.github.setPermission('octo-org', 'widgets', 'tom', 'triage');
    r.github.setPermission('octo-org', 'widgets', 'rita', 'read');
    await send(r, comment('rita', 'COLLABORATOR', '@agent-relay fix four', 46));
    const refusal = await waitUntil(() => commentsTo(r, 'rita')[0], { timeoutMs: 5_000 });
    expect(refusal.body).toContain('only by people with triage access');
    await send(r, comment('tom', 'MEMBER', '@agent-relay fix the flaky test'));
    await waitUntil(() => r.emulator.runs.count() === 1, { timeoutMs: 5_000 });
    await settle();
    expect(r.emulator.runs.count()).toBe(1);
  });

  it('when GitHub cannot say (5xx) once, the trigger is tried again quietly and the run starts', async () => {
    const r = await start();
    // Every request of the first check fails (Octokit's one quick retry included).
    permissionLookupFails(r, 2);
    await send(r, comment('alice', 'MEMBER', '@agent-relay fix the flaky test'));
    await waitUntil(() => r.emulator.runs.count() === 1, { timeoutMs: 8_000 });
    expect(commentsTo(r, 'alice').map((c) => c.body)).not.toContainEqual(
      expect.stringContaining("couldn't check your access"),
    );
    expect(r.logs.text()).toContain('could not check repository access');
  });

  it('when GitHub cannot say (5xx) at every attempt, the request is refused with a try-again note, then works', async () => {
    const r = await start();
    // Every request of every attempt fails (Octokit's one quick retry included).
    permissionLookupFails(r, 2 * ACCESS_ATTEMPTS);
    await send(r, comment('alice', 'MEMBER', '@agent-relay fix the flaky test'));
    const note = await waitUntil(() => commentsTo(r, 'alice')[0], { timeoutMs: 8_000 });
    expect(note.body).toContain("couldn't check your access");
    await settle();
    expect(serviceWrites(r)).toEqual({});
    expect(r.emulator.runs.count()).toBe(0);
    expect(r.logs.text()).toContain('could not check repository access');

    // A failure is not remembered: once GitHub answers, the same person gets through.
    await send(r, comment('alice', 'MEMBER', '@agent-relay fix the flaky test'));
    await waitUntil(() => r.emulator.runs.count() === 1, { timeoutMs: 5_000 });
  });

  it('asks GitHub once per person and repository for a while (cached)', async () => {
    const r = await start();
    await send(r, comment('alice', 'MEMBER', '@agent-relay fix one', 43));
    await send(r, comment('alice', 'MEMBER', '@agent-relay fix two', 44));
    await waitUntil(() => r.emulator.runs.count() === 2, { timeoutMs: 5_000 });
    expect(r.github.permissionLookups.filter((l) => l === 'octo-org/widgets:alice')).toHaveLength(
      1,
    );
  });
});

describe('GitHub: refusals never delay members', () => {
  it("25 outsiders' comments do not push back a member's first status comment", async () => {
    // Writes spaced as in production (scaled down): every refusal costs a write slot.
    const r = await start({ githubMinWriteIntervalMs: 150 });
    for (let i = 0; i < 25; i += 1) {
      expect(
        await send(r, comment(`outsider${i}`, 'NONE', '@agent-relay do my homework')),
      ).toMatchObject({ result: 'refused' });
    }
    const requestsBefore = r.github.requests.length;
    expect(
      await send(r, comment('alice', 'MEMBER', '@agent-relay fix the flaky test')),
    ).toMatchObject({
      result: 'accepted',
    });
    const posts = () =>
      r.github.requests
        .slice(requestsBefore)
        .filter((q) => q.method === 'POST' && q.path.endsWith('/comments'))
        .map((q) => String(q.body?.body ?? ''));
    const { statusAt } = await waitUntil(
      () => {
        const i = posts().findIndex((b) => !/@outsider\d+ /.test(b));
        return i >= 0 ? { statusAt: i } : undefined;
      },
      { timeoutMs: 10_000 },
    );
    // At most the one refusal already on its way may go first; none of the rest.
    expect(statusAt).toBeLessThanOrEqual(1);
    // The refusals are delivered afterwards, each once, up to the repository's hourly cap;
    // the outsiders past it are not told (their comments start nothing all the same).
    const told = () =>
      [...r.github.comments.values()].filter((c) => /@outsider\d+ /.test(c.body)).length;
    await waitUntil(() => told() === REFUSALS_PER_PLACE, { timeoutMs: 15_000 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(told()).toBe(REFUSALS_PER_PLACE);
  });
});

describe('GitHub: one refusal per person and thread per hour, remembered in the database', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('a restart does not tell the same outsider again', async () => {
    dir = mkdtempSync(join(tmpdir(), 'relay-refusals-'));
    const databasePath = join(dir, 'relay.db');
    const first = await startRelay({ databasePath });
    try {
      expect(await send(first, comment('mallory', 'NONE', '@agent-relay fix it'))).toMatchObject({
        result: 'refused',
        detail: 'queued',
      });
      await waitUntil(() => commentsTo(first, 'mallory').length === 1, { timeoutMs: 5_000 });
    } finally {
      await first.close();
    }
    const again = await start({ databasePath });
    expect(await send(again, comment('mallory', 'NONE', '@agent-relay fix it now'))).toMatchObject({
      result: 'refused',
      detail: 'suppressed',
    });
    await settle();
    expect(again.github.comments.size).toBe(0);
    expect(again.rows().outbox).toBe(1); // the first process's refusal, delivered
    await again.close();
  });
});
