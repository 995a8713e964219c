/**
 * Whole conversations on a Jira issue through the real relay, the emulator and the fake Jira
 * site: a label, an assignment and a mention each start a run whose one status comment is
 * edited through its states; the outcome comment mentions the requester with the agent's
 * words, the PR and the cost; a BLOCKED run asks there and a reply follows up; Stop interrupts
 * and Cancel ends; `status` answers in a comment.
 */
import { describe, expect, it } from 'vitest';
import { PEOPLE, RELAY_ACCOUNT_ID } from '../../src/fakes/jira-rest-api.js';
import { commentText, startJiraWorld } from '../helpers/jira.js';
import { worldPerTest } from '../helpers/world-per-test.js';

const startWorld = worldPerTest(startJiraWorld);

/** Whether an ADF body holds a real mention (a mention node) of the account. */
const mentions = (body: unknown, accountId: string) =>
  JSON.stringify(body).includes(`{"type":"mention","attrs":{"id":"${accountId}"`);

describe('a run on a Jira issue', () => {
  it('a label starts it: one status comment through every state, then the outcome for the requester', async () => {
    const world = await startWorld({ env: { JIRA_START_TRANSITION: 'In Progress' } });
    const { jira } = world;
    const issue = jira.model.addIssue('PROJ', {
      summary: 'Fix the login page',
      description: 'It loops after *sign in*.',
    });
    const sent = await world.send(jira.webhooks.labelAdded(issue, PEOPLE.alice, 'agent'));
    expect(sent.answer).toMatchObject({ result: 'accepted' });
    const outcome = await world.waitForComment(issue.key, (t) => /Run succeeded/.test(t));
    const [card, ...rest] = jira.model.relayComments(issue.key);
    expect(rest).toEqual([outcome]);
    // The one status comment went through the states, edited in place.
    const seen = [...card!.edits, card!.body].map((b) => commentText({ ...card!, body: b }));
    // "is starting", unless the run was created before that went out: then the card begins
    // with the run's first state ("is starting" was moot).
    expect(seen[0]).toMatch(/is starting|is waiting for a machine/);
    expect(
      seen.some((t) => /is waiting for a machine|is getting ready|is working on/.test(t)),
    ).toBe(true);
    expect(seen.at(-1)).toMatch(/finished: PROJ-1: Fix the login page/);
    expect(mentions(outcome.body, PEOPLE.alice)).toBe(true);
    const said = commentText(outcome);
    expect(said).toMatch(/PR: /);
    expect(said).toMatch(/Used about \$/);
    expect(issue.status).toBe('In Progress');
    const run = world.emulator.runs.all()[0]!;
    expect(run.prompt).toContain('PROJ-1: Fix the login page');
    expect(run.prompt).toContain('It loops after *sign in*.');
  });

  it('an assignment to the relay starts it, and a later mention follows up on it', async () => {
    const world = await startWorld();
    const { jira } = world;
    const issue = jira.model.addIssue('PROJ', { summary: 'Tidy the README' });
    await world.send(jira.webhooks.assigned(issue, PEOPLE.alice, RELAY_ACCOUNT_ID));
    await world.waitForComment(issue.key, (t) => /Run succeeded/.test(t));
    expect(world.emulator.runs.count()).toBe(1);
    const reply = await world.comment(issue, PEOPLE.bob, '@agent-relay also fix the typos');
    expect(reply.answer).toMatchObject({ result: 'accepted' });
    // No reactions on Jira: the follow-up is confirmed in a comment.
    await world.waitForComment(issue.key, (t) =>
      /Follow-up sent to: PROJ-1: Tidy the README/.test(t),
    );
    await world.waitForComment(
      issue.key,
      (t) => /Run succeeded/.test(t) && jira.model.relayComments(issue.key).length >= 3,
    );
    expect(world.emulator.runs.count()).toBe(1);
    expect(world.emulator.followups).toHaveLength(1);
    expect(world.emulator.followups[0]!.message).toContain('also fix the typos');
  });

  it('an issue created with the label, or assigned to the relay, starts a run once', async () => {
    const world = await startWorld();
    const { jira } = world;
    const labelled = jira.model.addIssue('PROJ', { summary: 'Born labelled', labels: ['agent'] });
    const assigned = jira.model.addIssue('PROJ', {
      summary: 'Born assigned',
      assigneeId: RELAY_ACCOUNT_ID,
    });
    const plain = jira.model.addIssue('PROJ', { summary: 'Just an issue', labels: ['backend'] });
    for (const issue of [labelled, assigned, plain]) {
      const body = jira.webhooks.created(issue, PEOPLE.alice);
      await world.send(body);
      await world.send(body, { identifier: 'another-identifier' });
    }
    await world.waitForComment(labelled.key, (t) => /Run succeeded/.test(t));
    await world.waitForComment(assigned.key, (t) => /Run succeeded/.test(t));
    expect(world.emulator.runs.count()).toBe(2);
    expect(jira.model.relayComments(plain.key)).toEqual([]);
  });

  it('a BLOCKED run asks in the issue, and the answer continues it', async () => {
    const world = await startWorld();
    const { jira } = world;
    const issue = jira.model.addIssue('PROJ');
    await world.comment(issue, PEOPLE.alice, '@agent-relay decide the schema [block]');
    const question = await world.waitForComment(issue.key, (t) =>
      /waiting for your answer/.test(t),
    );
    expect(mentions(question.body, PEOPLE.alice)).toBe(true);
    expect(commentText(question)).toMatch(/answer with @agent-relay <answer>/);
    await world.comment(issue, PEOPLE.alice, '@agent-relay use JSON');
    await world.waitForComment(issue.key, (t) => /Run succeeded/.test(t));
    expect(world.emulator.followups[0]!.message).toContain('use JSON');
    expect(world.emulator.runs.count()).toBe(1);
  });

  it('stop interrupts a working run; cancel ends it; status answers in a comment', async () => {
    const world = await startWorld({ timings: { slowRunMs: 30_000 } });
    const { jira, emulator } = world;
    const issue = jira.model.addIssue('PROJ');
    await world.comment(issue, PEOPLE.bob, '@agent-relay long job [slow]');
    await world.waitForComment(issue.key, (t) => /is working on/.test(t));
    await world.comment(issue, PEOPLE.bob, '@agent-relay stop');
    for (let i = 0; emulator.runs.all()[0]!.state !== 'BLOCKED'; i++) {
      expect(i).toBeLessThan(500);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(emulator.requests.get('POST /agent/runs/:id/interrupt')).toBe(1);
    await world.comment(issue, PEOPLE.bob, '@agent-relay status');
    await world.waitForComment(issue.key, (t) => /Its status comment/.test(t));
    await world.comment(issue, PEOPLE.bob, '@agent-relay cancel');
    await world.waitForComment(issue.key, (t) => /Run was cancelled/.test(t));
    expect(emulator.runs.all()[0]!.state).toBe('CANCELLED');
    const card = jira.model.relayComments(issue.key)[0]!;
    expect(commentText(card)).toMatch(/stopped \(cancelled\)/);
  });
  it('a failed run: the status comment says so, and the requester is told in a new comment', async () => {
    const world = await startWorld();
    const { jira } = world;
    const issue = jira.model.addIssue('PROJ', { summary: 'Migrate the billing tables' });
    await world.comment(issue, PEOPLE.bob, '@agent-relay migrate it [fail]');
    const outcome = await world.waitForComment(issue.key, (t) => /Run failed/.test(t));
    expect(mentions(outcome.body, PEOPLE.bob)).toBe(true);
    const card = jira.model.relayComments(issue.key)[0]!;
    expect(card).not.toBe(outcome);
    expect(commentText(card)).toMatch(/failed/);
    expect(world.emulator.runs.all()[0]!.state).toBe('FAILED');
  });
});
