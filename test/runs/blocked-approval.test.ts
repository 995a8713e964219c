/**
 * A run BLOCKED waiting for an approval (the emulator's `[approval]`): the agent said a few
 * words and then asked to run a command, which waits. Those words are not its question, so
 * the reply to the requester does not quote them as one: it names the action the run waits to
 * have approved, with the answers, and the card keeps the service's status line, on GitHub and
 * on Linear alike.
 */
import { describe, expect, it } from 'vitest';
import { fixtureText, type Payload } from '../github/fixtures.js';
import { startLinearWorld } from '../helpers/linear.js';
import { worldPerTest } from '../helpers/world-per-test.js';
import { relayPerTest } from '../helpers/relay.js';
import { waitUntil } from '../helpers/wait-until.js';

const start = relayPerTest();
const WORDS = 'I will force-push it now';
const WAITS_FOR = 'Waiting for approval to run';

const startWorld = worldPerTest(startLinearWorld);

describe('a run waiting for an approval', () => {
  it('on GitHub: the outcome does not quote the words before the action; the card says what it waits for', async () => {
    const r = await start();
    const payload = JSON.parse(fixtureText('issue-comment-created')) as Payload;
    payload.comment.body = '@agent-relay rebase and push [approval]';
    const res = await r.postGitHub(JSON.stringify(payload), {
      event: 'issue_comment',
      deliveryId: `approval-${Date.now()}`,
    });
    expect([200, 202]).toContain(res.status);
    const outcome = await waitUntil(
      () => [...r.github.comments.values()].find((c) => /Waiting for your approval/.test(c.body)),
      { timeoutMs: 8_000, message: 'the outcome comment' },
    );
    const all = () => [...r.github.comments.values()].map((c) => c.body).join('\n');
    expect(outcome.body).not.toContain(WORDS);
    expect(outcome.body).toContain('git push --force-with-lease');
    expect(outcome.body).toContain('`@agent-relay approve`');
    expect(all()).not.toContain(WORDS);
    expect(all()).toContain(WAITS_FOR);
  });

  it('on Linear: the elicitation is the status line, not the words before the action', async () => {
    const world = await startWorld();
    const { session } = await world.linear.openSession({
      description: 'Rebase the branch and push it. [approval]',
    });
    const asked = await world.waitForActivity(session.id, (a) => a.content.type === 'elicitation');
    expect(asked.content.body).toContain('Waiting for your approval');
    expect(asked.content.body).toContain('git push --force-with-lease');
    expect(asked.content.body).not.toContain(WORDS);
  });
});
