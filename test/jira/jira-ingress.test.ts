/**
 * POST /jira/webhooks against the real service: what is refused before anything is stored (a
 * bad or missing signature, no delivery identifier, bad JSON), what is answered and forgotten
 * (other sites, projects not allowed, the relay's own comments, comments that do not address
 * it, other changes), and a redelivery taken once, by its identifier or by its signed body.
 */
import { describe, expect, it } from 'vitest';
import { PEOPLE, RELAY_ACCOUNT_ID, signJira } from '../../src/fakes/jira-rest-api.js';
import { countRows } from '../helpers/relay.js';
import { startJiraWorld, type JiraWorld } from '../helpers/jira.js';
import { postRawWebhook } from '../helpers/platform-world.js';
import { worldPerTest } from '../helpers/world-per-test.js';

/** What the relay asks the site at start: what kind of site it is, and whose token it holds. */
const START_REQUESTS = ['/rest/api/2/serverInfo', '/rest/api/3/myself'];

const startWorld = worldPerTest(startJiraWorld);

const inbox = (w: JiraWorld) => countRows(w.relay.databasePath).inbox;

describe('POST /jira/webhooks', () => {
  it('answers 401 to a wrong, missing or tampered signature and stores nothing', async () => {
    const world = await startWorld();
    const issue = world.jira.model.addIssue('PROJ');
    const body = world.jira.webhooks.labelAdded(issue, PEOPLE.alice, 'agent');
    const forged = await world.send(body, { secret: 'not-the-secret-at-all-0000' });
    expect(forged).toMatchObject({ status: 401, answer: { ok: false, error: 'bad_signature' } });
    expect((await world.send(body, { unsigned: true })).status).toBe(401);
    const raw = JSON.stringify(body);
    const tampered = await postRawWebhook(world, raw.replace('"agent"', '"agent "'), {
      'x-atlassian-webhook-identifier': 'w-1',
      'x-hub-signature': signJira(raw, 'jira-webhook-secret-dummy-0123'),
    });
    expect(tampered.status).toBe(401);
    expect(inbox(world)).toBe(0);
    expect(world.jira.requests.map((r) => r.path)).toEqual(START_REQUESTS);
  });

  it('answers 400 without the delivery identifier or to a signed body that is not JSON', async () => {
    const world = await startWorld();
    const secret = 'jira-webhook-secret-dummy-0123';
    const noId = await postRawWebhook(world, '{}', { 'x-hub-signature': signJira('{}', secret) });
    expect(noId.status).toBe(400);
    const notJson = await postRawWebhook(world, '{nope', {
      'x-atlassian-webhook-identifier': 'w-2',
      'x-hub-signature': signJira('{nope', secret),
    });
    expect(notJson.status).toBe(400);
    const noIssue = await world.send({ webhookEvent: 'comment_created', comment: { id: '1' } });
    expect(noIssue).toMatchObject({ status: 400, answer: { error: 'invalid_payload' } });
    expect(inbox(world)).toBe(0);
  });

  it('answers and forgets other sites, projects not allowed, its own words and other changes', async () => {
    const world = await startWorld();
    const { model, webhooks } = world.jira;
    const issue = model.addIssue('PROJ');
    const other = model.addIssue('OPS');
    const elsewhere = webhooks.labelAdded(issue, PEOPLE.alice, 'agent');
    elsewhere.issue.self = 'https://other.atlassian.net/rest/api/2/issue/10000';
    const cases: [unknown, string][] = [
      [elsewhere, 'unknown_site'],
      [webhooks.labelAdded(other, PEOPLE.alice, 'agent'), 'project_not_allowed'],
      [webhooks.commentCreated(other, PEOPLE.alice, '@agent-relay fix it'), 'project_not_allowed'],
      [webhooks.commentCreated(issue, RELAY_ACCOUNT_ID, '@agent-relay fix it'), 'self'],
      [webhooks.commentCreated(issue, PEOPLE.bob, 'nothing for the bot'), 'not_addressed'],
      [webhooks.commentCreated(issue, PEOPLE.bob, '{code}@agent-relay fix{code}'), 'not_addressed'],
      [webhooks.commentCreated(issue, PEOPLE.bob, 'thanks @agent-relay!'), 'mention_without_words'],
      [webhooks.labelAdded(issue, PEOPLE.alice, 'backend'), 'no_trigger_change'],
      [webhooks.assigned(issue, PEOPLE.alice, PEOPLE.bob), 'no_trigger_change'],
      [{ webhookEvent: 'jira:issue_deleted', issue: { id: '1', key: 'PROJ-1' } }, 'other_event'],
    ];
    for (const [body, reason] of cases) {
      const res = await world.send(body);
      expect(res, reason).toMatchObject({
        status: 200,
        answer: { ok: true, result: 'ignored', reason },
      });
    }
    expect(inbox(world)).toBe(0);
    expect(world.jira.requests.map((r) => r.path)).toEqual(START_REQUESTS);
  });

  it('answers odd but signed bodies without crashing and keeps nothing', async () => {
    const world = await startWorld();
    const { model, webhooks } = world.jira;
    const issue = model.addIssue('PROJ');
    const badKey = webhooks.labelAdded(issue, PEOPLE.alice, 'agent');
    badKey.issue.key = 'PROJ-1:x';
    const badSelf = webhooks.labelAdded(issue, PEOPLE.alice, 'agent');
    badSelf.issue.self = 'not a url';
    const otherProject = webhooks.labelAdded(issue, PEOPLE.alice, 'agent');
    otherProject.issue.fields.project.key = 'OPS';
    let deep: unknown = { type: 'text', text: '@agent-relay hi' };
    for (let i = 0; i < 1_500; i++) deep = { type: 'paragraph', content: [deep] };
    const nested = webhooks.commentCreated(issue, PEOPLE.bob, '');
    (nested.comment as { body: unknown }).body = deep;
    const noChangelog = {
      ...webhooks.labelAdded(issue, PEOPLE.alice, 'agent'),
      changelog: undefined,
    };
    for (const body of [badKey, badSelf, otherProject, nested, noChangelog, [], 'text', null]) {
      const res = await world.send(body);
      expect([200, 400]).toContain(res.status);
    }
    expect(inbox(world)).toBe(0);
    // Still answering.
    const good = await world.send(
      webhooks.labelAdded(model.addIssue('PROJ'), PEOPLE.alice, 'agent'),
    );
    expect(good.answer).toMatchObject({ result: 'accepted' });
  });

  it('takes a redelivery once, by its identifier or by its signed body', async () => {
    const world = await startWorld({ timings: { runMs: 60_000 } });
    const issue = world.jira.model.addIssue('PROJ');
    const body = world.jira.webhooks.commentCreated(issue, PEOPLE.bob, '@agent-relay fix it');
    const first = await world.send(body, { identifier: 'w-10' });
    expect(first).toMatchObject({ status: 200, answer: { result: 'accepted' } });
    const again = await world.send(body, { identifier: 'w-10' });
    expect(again.answer).toMatchObject({ result: 'duplicate' });
    // The identifier is not signed: the same signed comment under another one is the same.
    const replay = await world.send(body, { identifier: 'w-11' });
    expect(replay.answer).toMatchObject({ result: 'duplicate' });
    expect(inbox(world)).toBe(1);
  });

  it('a real mention of the relay’s account addresses it as its handle does', async () => {
    const world = await startWorld({ timings: { runMs: 60_000 } });
    const issue = world.jira.model.addIssue('PROJ');
    const res = await world.comment(
      issue,
      PEOPLE.bob,
      `[~accountid:${RELAY_ACCOUNT_ID}] please look at {{src/a.ts}}`,
    );
    expect(res.answer).toMatchObject({ result: 'accepted' });
    const status = await world.waitForComment(issue.key, (t) => /please look at/.test(t));
    expect(status).toBeDefined();
  });
});

describe('Jira at start', () => {
  it('asks the site for the relay’s account, and a refused token ends the start-up', async () => {
    const first = await startJiraWorld();
    try {
      expect(first.jira.requests.map((r) => r.path)).toEqual(START_REQUESTS);
    } finally {
      await first.close();
    }
    await expect(
      startJiraWorld({ env: { JIRA_API_TOKEN: 'jira-token-dummy-wrong' } }),
    ).rejects.toMatchObject({
      code: 'jira_auth_failed',
    });
  });

  it('reads no comment while its own account is unknown (Jira did not answer at start)', async () => {
    const world = await startWorld({ failMyself: 503 });
    const issue = world.jira.model.addIssue('PROJ');
    const res = await world.comment(issue, PEOPLE.bob, '@agent-relay fix it');
    expect(res.answer).toMatchObject({ result: 'ignored', reason: 'own_account_unknown' });
    // A label needs no account to be told apart: it still starts a run.
    const label = await world.send(world.jira.webhooks.labelAdded(issue, PEOPLE.alice, 'agent'));
    expect(label.answer).toMatchObject({ result: 'accepted' });
  });

  it('with JIRA_ACCOUNT_ID it asks only what kind of site it is', async () => {
    const world = await startWorld({ env: { JIRA_ACCOUNT_ID: '712020:5f1e6e3a-relay-0001' } });
    expect(world.jira.requests.map((r) => r.path)).toEqual(['/rest/api/2/serverInfo']);
  });

  it('refuses a Data Center or Server site at start, in one line that says why', async () => {
    for (const kind of ['DataCenter', 'Server']) {
      await expect(startJiraWorld({ deploymentType: kind })).rejects.toMatchObject({
        code: 'jira_not_supported',
        message: expect.stringMatching(new RegExp(`a Jira ${kind} site.*Jira Cloud only`)),
      });
    }
  });
});
