/**
 * The fake GitHub holds check-run writes to GitHub's published description (`checks/create`
 * and `checks/update` in GitHub's OpenAPI description, through Octokit's endpoint types): an
 * unpublished field, status or conclusion is refused as GitHub refuses a bad body (422); a
 * completed check run is not moved back; buttons show only once the check run completed
 * ("The button created in this object is displayed after the check run completes",
 * https://docs.github.com/en/rest/checks/runs#create-a-check-run). A
 * reaction GitHub does not publish is refused too, and so is any request to the endpoints the
 * relay uses that GitHub's description does not allow (`src/fakes/github-published.ts`): each
 * refusal is recorded, and a test that leaves one fails (`test/setup/published-fakes.ts`).
 */
import { describe, expect, it } from 'vitest';
import { createCheckRuns } from '../../src/fakes/github-check-runs.js';
import { startFakeGitHub } from '../../src/fakes/github-rest-api.js';
import { takeRefusals } from '../../src/fakes/published.js';

const base = { name: 'agent-relay: Fix it', head_sha: 'a1b2c3', external_id: 'run_1#7' };
const cancel = { label: 'Cancel', description: 'End the run', identifier: 'cancel' };

describe("the fake GitHub's check runs", () => {
  it('refuses what the published description does not allow', () => {
    const checks = createCheckRuns();
    expect(checks.invalid({ ...base, status: 'in_progress' })).toBeUndefined();
    expect(checks.invalid({ ...base, status: 'running' })).toMatch(/^status: running/);
    expect(checks.invalid({ ...base, status: 'completed', conclusion: 'done' })).toMatch(
      /^conclusion: done/,
    );
    expect(checks.invalid({ ...base, buttons: [] })).toMatch(/^buttons: not a field/);
    expect(checks.invalid({ ...base, actions: [cancel, cancel, cancel, cancel] })).toMatch(
      /at most 3/,
    );
  });

  it('shows buttons only on a completed check run, and never reopens one', () => {
    const checks = createCheckRuns();
    const run = checks.create('octo-org', 'widgets', {
      ...base,
      status: 'in_progress',
      actions: [cancel],
    });
    expect(run.shownActions).toEqual([]);
    checks.update(run, { status: 'completed', conclusion: 'action_required', actions: [cancel] });
    expect(run.shownActions).toEqual([cancel]);
    expect(checks.reopens(run, { status: 'in_progress' })).toMatch(/create a new check run/);
    expect(checks.reopens(run, { conclusion: 'cancelled' })).toBeUndefined();
  });
});

describe("the fake GitHub's reactions", () => {
  it('takes only the reactions GitHub publishes', async () => {
    const github = await startFakeGitHub({ token: 'ghp_dummy_reactions' });
    try {
      const react = (content: string) =>
        fetch(`${github.url}/repos/octo-org/widgets/issues/42/reactions`, {
          method: 'POST',
          headers: {
            authorization: 'token ghp_dummy_reactions',
            'content-type': 'application/json',
          },
          body: JSON.stringify({ content }),
        });
      expect((await react('eyes')).status).toBe(201);
      expect((await react('thumbsup')).status).toBe(422);
      expect(takeRefusals()).toMatchObject([{ platform: 'github', problems: [/thumbsup/] }]);
    } finally {
      await github.close();
    }
  });
});

describe("the fake GitHub and GitHub's REST description", () => {
  const TOKEN = 'ghp_dummy_published';
  const call = (github: { url: string }, method: string, path: string, body?: unknown) =>
    fetch(`${github.url}${path}`, {
      method,
      headers: { authorization: `token ${TOKEN}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it('refuses a body, a field or a parameter the description does not publish, and records it', async () => {
    const github = await startFakeGitHub({ token: TOKEN });
    try {
      const comments = '/repos/octo-org/widgets/issues/42/comments';
      expect((await call(github, 'POST', comments, { body: 'Starting…' })).status).toBe(201);
      expect(takeRefusals()).toEqual([]);

      const missing = await call(github, 'POST', comments, { text: 'Starting…' });
      expect(missing.status).toBe(422);
      expect(await missing.json()).toMatchObject({ message: 'Invalid request.' });
      const [refusal] = takeRefusals();
      expect(refusal).toMatchObject({
        platform: 'github',
        request: expect.stringContaining('issues/create-comment'),
      });
      expect(refusal!.problems).toEqual(['text: not a published field', 'body: required']);

      expect((await call(github, 'POST', comments, { body: 42 })).status).toBe(422);
      expect(takeRefusals()[0]!.problems).toEqual(['body: a integer, where string is published']);

      expect((await call(github, 'GET', `${comments}?since=2026-01-01&sort=asc`)).status).toBe(422);
      expect(takeRefusals()[0]!.problems).toEqual(['?sort: not a published parameter']);
    } finally {
      await github.close();
    }
  });

  it('refuses an App token asked with a permission level the description does not list', async () => {
    const github = await startFakeGitHub({ token: TOKEN });
    try {
      const tokens = '/app/installations/1/access_tokens';
      const res = await call(github, 'POST', tokens, { permissions: { checks: 'maintain' } });
      expect(res.status).toBe(422);
      expect(takeRefusals()[0]!.problems).toEqual([
        'permissions.checks: maintain is not published',
      ]);
    } finally {
      await github.close();
    }
  });
});
