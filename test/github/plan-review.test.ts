/**
 * Plan first, end to end on GitHub (the running relay, the fake GitHub with `checks: write`,
 * the emulator playing plan mode): the plan in the status comment and in the check run, which
 * is completed with `action_required` so its Approve and Cancel buttons show; a reply comment
 * asks for changes and brings a revised plan; a stale press on the first plan's button and a
 * press by someone not allowed do nothing and say so; Approve carries the plan out.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_INSTALLATION_PERMISSIONS,
  type FakeCheckRun,
} from '../../src/fakes/github-rest-api.js';
import { commentEvent } from './fixtures.js';
import { postGitHub } from '../helpers/github.js';
import { waitUntil } from '../helpers/wait-until.js';
import { relayPerTest, type Relay } from '../helpers/relay.js';

const start = relayPerTest({
  github: { permissions: { ...DEFAULT_INSTALLATION_PERMISSIONS, checks: 'write' } },
});
const PR = 7;

/** A relay whose fake GitHub has pull request PR (feature into main). */
async function startWithPr(): Promise<Relay> {
  const r = await start();
  r.github.setPullRequest('octo-org', 'widgets', PR, {
    head: 'feature',
    base: 'main',
    sha: 'a1b2c3d4e5f6',
  });
  return r;
}

async function comment(r: Relay, text: string, login = 'alice'): Promise<void> {
  const c = commentEvent('pull', PR, login, 'MEMBER', text);
  const res = await postGitHub(r.githubWebhooks, c.body, c.delivery);
  expect([200, 202]).toContain(res.status);
}

const click = (r: Relay, check: FakeCheckRun, login: string, identifier: string) =>
  r.checkRunEvent(check, login, identifier);

/** The newest check run once it is completed with this conclusion, other than `not`. */
const concluded = (r: Relay, conclusion: string, not?: number) =>
  waitUntil(
    () => {
      const check = r.github.checkRunsOn('octo-org', 'widgets', PR).at(-1);
      return check?.status === 'completed' && check.conclusion === conclusion && check.id !== not
        ? check
        : undefined;
    },
    { timeoutMs: 10_000, message: `check run ${conclusion}` },
  );

const commentWith = (r: Relay, words: string) =>
  waitUntil(() => [...r.github.comments.values()].find((c) => c.body.includes(words)), {
    timeoutMs: 10_000,
    message: `a comment with "${words}"`,
  });

describe('GitHub: plan first', () => {
  it('plan -> shown -> a reply asks for changes -> revised plan -> Approve -> implementation -> outcome', async () => {
    const r = await startWithPr();
    r.github.setPermission('octo-org', 'widgets', 'bob', 'write');
    await comment(r, '@agent-relay mode=plan fix the flaky login test');

    // Shown: the check run completed with action_required, Approve and Cancel bound to v1.
    const first = await concluded(r, 'action_required');
    expect(first.shownActions.map((a) => a.identifier)).toEqual(['approve.1', 'cancel.1']);
    expect(first.output?.summary).toContain('Plan: fix the flaky login test');
    // ...and in the status comment, with the answers to type.
    const card = await commentWith(r, 'The plan is ready for review');
    expect(card.body).toContain('`@agent-relay approve`');
    const [run] = r.emulator.runs.all();

    // Someone with write access who is neither the requester nor an admin: refused.
    expect((await click(r, first, 'bob', 'approve.1')).status).toBe(202);
    await commentWith(r, 'Only the person who started this run');
    expect(r.emulator.followups).toHaveLength(0);

    // A reply on the pull request asks for changes (plan mode), never carries the plan out.
    await comment(r, '@agent-relay keep the old login endpoint working');
    await waitUntil(() => r.emulator.followups[0]);
    expect(r.emulator.followups[0]).toMatchObject({ mode: 'plan' });
    expect(r.emulator.followups[0]?.message).toContain('keep the old login endpoint working');

    // The revised plan: a new check run, its buttons bound to v2.
    const revised = await concluded(r, 'action_required', first.id);
    expect(revised.shownActions.map((a) => a.identifier)).toEqual(['approve.2', 'cancel.2']);
    expect(revised.output?.summary).toContain('keep the old login endpoint working');

    // The first plan's button is stale: said, nothing sent.
    expect((await click(r, first, 'alice', 'approve.1')).status).toBe(202);
    await commentWith(r, 'earlier plan');
    expect(r.emulator.followups).toHaveLength(1);

    // Approve: carried out in normal mode; the run ends with its pull request.
    expect((await click(r, revised, 'alice', 'approve.2')).status).toBe(202);
    await waitUntil(() => r.emulator.followups[1]);
    expect(r.emulator.followups[1]?.mode).toBe('normal');
    await commentWith(r, 'approved the plan');
    await concluded(r, 'success');
    expect(r.emulator.runs.get(run!.run_id)?.state).toBe('SUCCEEDED');
  });
});

describe('GitHub: a sub-run waiting for approval', () => {
  it('is asked about in the run’s thread; a typed `approve <sub-run id>` goes to the sub-run', async () => {
    const r = await startWithPr();
    await comment(r, '@agent-relay ship the release');
    const parentId = await waitUntil(() => r.emulator.runs.all()[0]?.run_id, { timeoutMs: 10_000 });
    r.emulator.setState(parentId, 'INPROGRESS');
    const child = r.emulator.createRunDirect(
      { prompt: 'deploy to production', parent_run_id: parentId },
      { state: 'BLOCKED', manual: true },
    );
    const asked = await commentWith(r, 'A sub-run this run started is waiting for approval');
    // The typed answer names the sub-run: a bare `approve` would answer the thread's own run.
    expect(asked.body).toContain(`@agent-relay approve ${child.run_id}`);

    await comment(r, `@agent-relay approve ${child.run_id}`);
    const sent = await waitUntil(() => r.emulator.followups[0], { timeoutMs: 10_000 });
    expect(sent.runId).toBe(child.run_id);
    await commentWith(r, 'approved the sub-run');
    // Answered once: again, it says so and sends nothing.
    await comment(r, `@agent-relay approve ${child.run_id}`);
    await commentWith(r, 'already answered');
    expect(r.emulator.followups).toHaveLength(1);
  }, 30_000);
});
