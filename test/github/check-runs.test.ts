/**
 * A GitHub check run per run on a pull request, through the running relay (App auth with
 * `checks: write` on the fake GitHub, the emulator as the service): created `in_progress` on
 * the head commit, concluded per outcome, one per episode of the run (a completed check run is
 * never moved back: the fake GitHub refuses that, as GitHub's model has it); buttons only on a
 * completed check run, since GitHub shows them only there (`actions` in `checks/create` of
 * GitHub's REST description), and they act for people with write access only; while the run
 * works the check run says how to stop it from the conversation; "Re-run" tries a finished run
 * again in a new check run and never starts a run beside a live one; without the permission,
 * or with a token, there is no check run at all.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_INSTALLATION_PERMISSIONS,
  type FakeCheckRun,
} from '../../src/fakes/github-rest-api.js';
import { startFakeGitHub } from '../../src/fakes/github-rest-api.js';
import { commentEvent } from './fixtures.js';
import { TEST_GITHUB_SECRET, postGitHub } from '../helpers/github.js';
import { waitUntil } from '../helpers/wait-until.js';
import {
  relayEnv,
  relayPerTest,
  startRelayService,
  QUICK_TIMINGS,
  INSTALLATION_ID,
  type Relay,
} from '../helpers/relay.js';
import { startEmulator } from '../../src/emulator/index.js';
import { SECRETS } from '../helpers/secrets.js';
import { startFakeSlackApi } from '../../src/fakes/slack-web-api.js';

const WITH_CHECKS = { ...DEFAULT_INSTALLATION_PERMISSIONS, checks: 'write' };
const start = relayPerTest({ github: { permissions: WITH_CHECKS } });
const PR = 7;

async function ask(r: Pick<Relay, 'githubWebhooks'>, text: string): Promise<void> {
  const c = commentEvent('pull', PR, 'alice', 'MEMBER', text);
  const res = await postGitHub(r.githubWebhooks, c.body, c.delivery);
  expect([200, 202]).toContain(res.status);
}

/** The relay with the pull request's head known to the fake, and one run asked for. */
async function runOnPr(text: string, options: Parameters<typeof start>[0] = {}) {
  const r = await start(options);
  r.github.setPullRequest('octo-org', 'widgets', PR, {
    head: 'feature',
    base: 'main',
    sha: 'a1b2c3d4e5f6',
  });
  await ask(r, text);
  const run = await waitUntil(() => r.emulator.runs.all()[0], { timeoutMs: 5_000 });
  return { r, run };
}

const onlyCheck = (r: Relay) =>
  waitUntil(
    () => {
      const all = r.github.checkRunsOn('octo-org', 'widgets', PR);
      return all.length > 0 ? all : undefined;
    },
    { timeoutMs: 8_000, message: 'a check run' },
  );

/** The run's newest check run once it has this conclusion. */
const concluded = (r: Relay, conclusion: string) =>
  waitUntil(
    () => {
      const check = r.github.checkRunsOn('octo-org', 'widgets', PR).at(-1);
      return check?.status === 'completed' && check.conclusion === conclusion ? check : undefined;
    },
    { timeoutMs: 10_000, message: `check run ${conclusion}` },
  );

const stateIs = (r: Relay, runId: string, state: string) =>
  waitUntil(() => (r.emulator.runs.get(runId)?.state === state ? true : undefined), {
    timeoutMs: 8_000,
    message: `run ${state}`,
  });

const click = (r: Relay, check: FakeCheckRun, login: string, identifier: string) =>
  r.checkRunEvent(check, login, identifier);
const rerun = (r: Relay, check: FakeCheckRun, login = 'alice') => r.checkRunEvent(check, login);

describe('GitHub check runs', () => {
  it('is created in_progress on the head commit, named after the run, and succeeds with it', async () => {
    const { r, run } = await runOnPr('@agent-relay fix the flaky test');
    const [check] = await onlyCheck(r);
    expect(check!.headSha).toBe('a1b2c3d4e5f6');
    // The run, and the pull request (GitHub lists none on a fork's commit).
    expect(check!.externalId).toBe(`${run.run_id}#${PR}`);
    expect(check!.name).toMatch(/^agent-relay: /);
    expect(check!.writes[0]).toMatchObject({
      status: 'in_progress',
      external_id: `${run.run_id}#${PR}`,
    });
    expect(check!.writes[0]?.details_url).toEqual(expect.stringMatching(/^https?:\/\//));
    // No button while it works (GitHub would not show one): the summary says how to stop.
    expect(check!.writes[0]?.actions).toEqual([]);
    expect(check!.writes[0]?.output).toMatchObject({
      summary: expect.stringContaining('`@agent-relay stop`') as unknown,
    });
    const done = await concluded(r, 'success');
    expect(done.output?.summary).toContain('Succeeded');
    expect(done.output?.summary).not.toContain('Stop or cancel');
    expect(done.actions).toEqual([]);
    // One check run for the run, however often its status message changed.
    await stateIs(r, run.run_id, 'SUCCEEDED');
    expect(r.github.checkRunsOn('octo-org', 'widgets', PR)).toHaveLength(1);
    expect(
      r.github.requests.filter((q) => q.method === 'POST' && /check-runs$/.test(q.path)),
    ).toHaveLength(1);
  });

  it('concludes failure for a failed run and action_required while it waits for input', async () => {
    const { r } = await runOnPr('@agent-relay break it [fail]');
    await concluded(r, 'failure');
    const again = await start();
    again.github.setPullRequest('octo-org', 'widgets', PR, { head: 'feature', base: 'main' });
    await ask(again, '@agent-relay ask me something [block]');
    const check = await concluded(again, 'action_required');
    expect(check.shownActions.map((a) => a.identifier)).toEqual(['cancel']);
  });

  it("shows the agent's steps in its summary while the run works", async () => {
    const { r, run } = await runOnPr('@agent-relay a long job [slow]', {
      engineOptions: { progressIntervalMs: 150, progressReadsPerMinute: 6_000 },
    });
    await stateIs(r, run.run_id, 'INPROGRESS');
    const check = await waitUntil(
      () => {
        const [c] = r.github.checkRunsOn('octo-org', 'widgets', PR);
        return c?.output?.summary?.includes('**Now:**') ? c : undefined;
      },
      { timeoutMs: 10_000, message: 'steps in the summary' },
    );
    expect(check.status).toBe('in_progress');
  });

  it('Stop from the conversation interrupts the run; the Cancel button of the waiting run cancels it', async () => {
    const { r, run } = await runOnPr('@agent-relay a long job [slow]');
    await stateIs(r, run.run_id, 'INPROGRESS');
    const [working] = await onlyCheck(r);
    expect(working!.status).toBe('in_progress');
    expect(working!.shownActions).toEqual([]);
    await ask(r, '@agent-relay stop');
    await stateIs(r, run.run_id, 'BLOCKED');
    expect(r.emulator.requests.get('POST /agent/runs/:id/interrupt')).toBe(1);
    const waiting = await concluded(r, 'action_required');
    expect(waiting.shownActions.map((a) => a.identifier)).toEqual(['cancel']);
    expect((await click(r, waiting, 'alice', 'cancel')).status).toBe(202);
    await stateIs(r, run.run_id, 'CANCELLED');
    await concluded(r, 'cancelled');
    expect(r.github.checkRunsOn('octo-org', 'widgets', PR)).toHaveLength(1);
  });

  it('Cancel on a pull request from a fork (GitHub lists no pull request on its check run) still cancels the run', async () => {
    const { r, run } = await runOnPr('@agent-relay ask me something [block]');
    const waiting = await concluded(r, 'action_required');
    const fromFork = await r.github.sendCheckRunEvent(waiting, {
      url: r.githubWebhooks,
      secret: TEST_GITHUB_SECRET,
      action: 'requested_action',
      identifier: 'cancel',
      login: 'alice',
      installationId: INSTALLATION_ID,
      pullRequests: [],
    });
    expect(fromFork.status).toBe(202);
    await stateIs(r, run.run_id, 'CANCELLED');
  });

  it('an answer to a waiting run is a new episode: a new check run, the waiting one left as it was', async () => {
    const { r, run } = await runOnPr('@agent-relay ask me something [block]');
    const waiting = await concluded(r, 'action_required');
    await ask(r, '@agent-relay yes, go on');
    const next = await waitUntil(
      () => r.github.checkRunsOn('octo-org', 'widgets', PR).find((c) => c.id !== waiting.id),
      { timeoutMs: 8_000, message: 'a second check run' },
    );
    expect(next.externalId).toBe(waiting.externalId);
    expect(next.writes[0]).toMatchObject({ status: 'in_progress' });
    expect(waiting.status).toBe('completed');
    expect(waiting.conclusion).toBe('action_required');
    const doneAt = waiting.writes.findIndex((w) => w.status === 'completed');
    expect(waiting.writes.slice(doneAt).map((w) => w.status)).not.toContain('in_progress');
    await stateIs(r, run.run_id, 'SUCCEEDED');
    await concluded(r, 'success');
    // Nothing was refused: every update sent to a check run was applied (none tried to reopen
    // a completed one, which the fake GitHub answers with 422).
    for (const check of r.github.checkRunsOn('octo-org', 'widgets', PR)) {
      const patches = r.github.requests.filter(
        (q) => q.method === 'PATCH' && q.path.endsWith(`/check-runs/${check.id}`),
      );
      expect(patches).toHaveLength(check.writes.length - 1);
    }
  });

  it('Stop and Cancel from someone with read access only do nothing to the run', async () => {
    const { r, run } = await runOnPr('@agent-relay a long job [slow]');
    r.github.setPermission('octo-org', 'widgets', 'rita', 'read');
    await stateIs(r, run.run_id, 'INPROGRESS');
    const [check] = await onlyCheck(r);
    expect((await click(r, check!, 'rita', 'cancel')).status).toBe(202);
    expect((await click(r, check!, 'rita', 'stop')).status).toBe(202);
    await waitUntil(() => [...r.github.comments.values()].find((c) => c.body.includes('@rita ')));
    expect(r.github.permissionLookups).toContain('octo-org/widgets:rita');
    expect(r.emulator.requests.get('POST /agent/runs/:id/cancel')).toBe(0);
    expect(r.emulator.requests.get('POST /agent/runs/:id/interrupt')).toBe(0);
    expect(r.emulator.runs.get(run.run_id)?.state).toBe('INPROGRESS');
  });

  it('Re-run on a finished run sends it a follow-up, not a new run', async () => {
    const { r, run } = await runOnPr('@agent-relay fix it');
    await concluded(r, 'success');
    const [check] = r.github.checkRunsOn('octo-org', 'widgets', PR);
    expect((await rerun(r, check!)).status).toBe(202);
    await waitUntil(() => (r.emulator.requests.get('POST /agent/runs/:id/followups') ?? 0) > 0, {
      timeoutMs: 8_000,
      message: 'a follow-up',
    });
    expect(r.emulator.followups.at(-1)).toMatchObject({ runId: run.run_id });
    expect(JSON.stringify(r.emulator.followups.at(-1))).toContain('Try again.');
    expect(r.emulator.runs.all()).toHaveLength(1);
    // The finished check run stays finished; the new episode is a new check run.
    const next = await waitUntil(
      () => r.github.checkRunsOn('octo-org', 'widgets', PR).find((c) => c.id !== check!.id),
      { timeoutMs: 8_000, message: 'a new check run' },
    );
    expect(next.writes[0]).toMatchObject({ status: 'in_progress' });
    expect(check!.conclusion).toBe('success');
  });

  it('Re-run where only the requester may steer: refused to others, taken from the requester', async () => {
    const { r, run } = await runOnPr('@agent-relay fix it');
    await concluded(r, 'success');
    await ask(r, '@agent-relay config steer=requester');
    await waitUntil(() =>
      [...r.github.comments.values()].find((c) => /steer/.test(c.body) && c.author !== 'alice'),
    );
    const [check] = r.github.checkRunsOn('octo-org', 'widgets', PR);
    r.github.setPermission('octo-org', 'widgets', 'bob', 'write');
    expect((await rerun(r, check!, 'bob')).status).toBe(202);
    await waitUntil(() =>
      [...r.github.comments.values()].find(
        (c) => c.body.includes('@bob') && c.body.includes('Here only the person who started'),
      ),
    );
    expect(r.emulator.requests.get('POST /agent/runs/:id/followups') ?? 0).toBe(0);
    expect((await rerun(r, check!, 'alice')).status).toBe(202);
    await waitUntil(() => (r.emulator.requests.get('POST /agent/runs/:id/followups') ?? 0) > 0, {
      timeoutMs: 8_000,
      message: 'the requester’s follow-up',
    });
    expect(r.emulator.followups.at(-1)).toMatchObject({ runId: run.run_id });
    expect(r.emulator.runs.all()).toHaveLength(1);
  });

  it("Re-run on another App's check run is ignored without a word", async () => {
    const { r } = await runOnPr('@agent-relay fix it');
    await concluded(r, 'success');
    // The run's closing comment is posted: nothing else is due.
    await waitUntil(() =>
      [...r.github.comments.values()].find((c) => c.author !== 'alice' && /Done/.test(c.body)),
    );
    const before = r.github.comments.size;
    const theirs: FakeCheckRun = {
      id: 990_001,
      owner: 'octo-org',
      repo: 'widgets',
      headSha: 'a1b2c3d4e5f6',
      name: 'ci / build',
      externalId: `ci-build-4711#${PR}`,
      status: 'completed',
      conclusion: 'failure',
      actions: [],
      shownActions: [],
      writes: [],
    };
    expect((await rerun(r, theirs)).status).toBe(202);
    // Handled (the log says so), and then nothing posted once the outbox had its time.
    await waitUntil(() => (r.logs.text().includes('no such run of ours') ? true : undefined), {
      timeoutMs: 8_000,
      message: 'the re-run handled',
    });
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect([...r.github.comments.values()].slice(before).map((c) => c.body)).toEqual([]);
    expect(r.emulator.requests.get('POST /agent/runs/:id/followups') ?? 0).toBe(0);
  });

  it('Re-run on a live run starts nothing and says so', async () => {
    const { r, run } = await runOnPr('@agent-relay a long job [slow]');
    await stateIs(r, run.run_id, 'INPROGRESS');
    const [check] = await onlyCheck(r);
    expect((await rerun(r, check!)).status).toBe(202);
    await waitUntil(() =>
      [...r.github.comments.values()].find((c) => /still running/.test(c.body)),
    );
    expect(r.emulator.requests.get('POST /agent/runs/:id/followups') ?? 0).toBe(0);
    expect(r.emulator.runs.all()).toHaveLength(1);
  });

  it('an App without checks:write gets no check run, and the run goes on as before', async () => {
    const { r, run } = await runOnPr('@agent-relay fix it', { github: {} });
    await stateIs(r, run.run_id, 'SUCCEEDED');
    await waitUntil(() => [...r.github.comments.values()].find((c) => /succeeded/.test(c.body)));
    expect(r.github.checkRuns.size).toBe(0);
    expect(r.github.requests.filter((q) => q.path.includes('check-runs'))).toEqual([]);
  });
});

describe('GitHub check runs with a token', () => {
  it('writes no check run and fails nothing', async () => {
    const TOKEN = 'ghp_dummy_token_for_tests';
    const emulator = await startEmulator({
      apiKey: SECRETS.agentApiKey,
      timings: QUICK_TIMINGS,
      tickMs: 10,
    });
    const slack = await startFakeSlackApi();
    const github = await startFakeGitHub({ token: TOKEN, permissions: WITH_CHECKS });
    const env = relayEnv(
      { agentApiUrl: emulator.baseUrl, slackApiUrl: slack.url, githubApiUrl: github.url },
      { GITHUB_TOKEN: TOKEN },
    );
    delete env.GITHUB_APP_ID;
    delete env.GITHUB_PRIVATE_KEY;
    const relay = await startRelayService(env, {
      engineOptions: { workerPollMs: 20 },
      platforms: { githubMinWriteIntervalMs: 0 },
      announce: false,
    });
    try {
      github.setPullRequest('octo-org', 'widgets', PR, { head: 'feature', base: 'main' });
      await ask({ githubWebhooks: `${relay.service.url}/github/webhooks` }, '@agent-relay fix it');
      const run = await waitUntil(() => emulator.runs.all()[0], { timeoutMs: 5_000 });
      await waitUntil(() =>
        emulator.runs.get(run.run_id)?.state === 'SUCCEEDED' ? true : undefined,
      );
      await waitUntil(() => [...github.comments.values()].find((c) => /succeeded/.test(c.body)));
      expect(github.checkRuns.size).toBe(0);
      expect(github.requests.filter((q) => q.path.includes('check-runs'))).toEqual([]);
    } finally {
      await relay.close();
      await Promise.all([emulator.close(), slack.close(), github.close()]);
    }
  });
});
