/**
 * The Linear notifier against the fake Linear API: what each message becomes, a retried post
 * that does not write twice, the keep-alive thought the runs queued (written once, counted as
 * a write), what follows a Stop's answer as given (the runs decide what is queued), and
 * failures as the outbox's DeliveryErrors.
 */
import { describe, expect, it } from 'vitest';
import {
  notice,
  runOutcomeMessage,
  runStatusMessage,
} from '../../src/core/message/render-model.js';
import { createMemoryLinearSessions, DeliveryError } from '../../src/core/ports/index.js';
import type { RunItem } from '../../src/core/run.js';
import { startLinearWithSession, starting, to, view } from './notifier-messages.js';
import { createLinearNotifier } from '../../src/linear/index.js';
import { captureLogs } from '../helpers/log-capture.js';
import { worldPerTest } from '../helpers/world-per-test.js';

const startLinear = worldPerTest(startLinearWithSession);

async function setUp(token?: string) {
  const linear = await startLinear();
  let now = 1_000_000;
  const clock = { now: () => now };
  const sessions = createMemoryLinearSessions();
  const notifier = createLinearNotifier({
    apiUrl: linear.url,
    token: token ?? linear.workspaces[0]!.token,
    logger: captureLogs().logger,
    clock,
    sessions,
  });
  return { linear, notifier, sessions, now: () => now, advance: (ms: number) => (now += ms) };
}

describe('the Linear notifier', () => {
  it('writes a retried post once: the activity id comes from the notification key', async () => {
    const { linear, notifier } = await setUp();
    const first = await notifier.post(to, starting, { key: 'n1.1' });
    const again = await notifier.post(to, starting, { key: 'n1.1', mayExist: { since: 0 } });
    expect(again.ref.id).toBe(first.ref.id);
    expect(linear.activitiesOf('s1')).toHaveLength(1);
    expect(linear.activitiesOf('s1')[0]!.content).toEqual({
      type: 'thought',
      body: 'Starting a cloud agent run…',
    });
  });

  it('says BLOCKED with the question, SUCCEEDED with links, ERROR with what to do', async () => {
    const { linear, notifier } = await setUp();
    await notifier.post(
      to,
      runOutcomeMessage(view('BLOCKED', { status_message: { message: 'Which database?' } })),
    );
    await notifier.post(
      to,
      runOutcomeMessage(
        view('SUCCEEDED', {
          artifacts: [
            { artifact_type: 'PULL_REQUEST', data: { url: 'https://github.com/o/r/pull/7' } },
          ],
        } as Partial<RunItem>),
      ),
    );
    await notifier.post(
      to,
      runOutcomeMessage(view('ERROR', { status_message: { message: 'Machine lost' } })),
    );
    const [asked, done, failed] = linear.activitiesOf('s1');
    expect(asked!.content).toMatchObject({ type: 'elicitation' });
    expect(asked!.content.body).toContain('Which database?');
    expect(done!.content).toMatchObject({ type: 'response' });
    expect(done!.content.body).toContain('[PR: o/r#7](https://github.com/o/r/pull/7)');
    expect(done!.content.body).toContain('[Session](http://agent.test/s/r1)');
    expect(failed!.content).toMatchObject({ type: 'error' });
    expect(failed!.content.body).toContain('Machine lost');
    expect(failed!.content.body).toContain('reply here to try again');
  });

  it('writes the BLOCKED outcome it is given after a Stop’s answer: keeping it back is the runs’ decision', async () => {
    const { linear, notifier } = await setUp();
    const answer = 'stopped the agent. Reply in this thread to continue.';
    await notifier.post(to, { ...notice('info', answer), closing: true });
    await notifier.post(
      to,
      runOutcomeMessage(view('BLOCKED', { status_message: { message: 'Interrupted by user' } })),
    );
    expect(linear.activitiesOf('s1').map((a) => a.content.type)).toEqual([
      'response',
      'elicitation',
    ]);
  });

  it('writes the keep-alive the runs queued once, and counts it as a write to the session', async () => {
    const { linear, notifier, sessions, now, advance } = await setUp();
    const posted = await notifier.post(to, starting);
    await notifier.update(posted.ref, runStatusMessage(view('INPROGRESS')));
    expect(linear.sessions.get('s1')!.externalUrls).toEqual([
      { label: 'Cloud agent session', url: 'http://agent.test/s/r1' },
    ]);
    const count = () => linear.activitiesOf('s1').length;
    const before = count();
    // The session keeper found the session quiet, claimed its keep-alive and queued it.
    await sessions.setWorking(to.threadKey, true, now());
    const quietSince = now();
    advance(21 * 60_000);
    expect(await sessions.claimKeepAlive(to.threadKey, quietSince, now(), now() + 60_000)).toBe(
      true,
    );
    advance(1_000);
    await notifier.keepAlive(to.threadKey, { key: 'n7.1' });
    expect(linear.activitiesOf('s1').at(-1)!.content).toEqual({
      type: 'thought',
      body: 'Still working on it…',
    });
    // Written: the next keep-alive is no longer held back, and the quiet period starts anew.
    expect(await sessions.keepAliveUntil(to.threadKey)).toBe(0);
    expect(await sessions.quiet(now() + 1, 10)).toEqual([
      { threadKey: to.threadKey, lastWrittenAt: now() },
    ]);
    // A retried delivery (the first may have landed unrecorded) writes nothing more.
    await notifier.keepAlive(to.threadKey, { key: 'n7.1', mayExist: { since: 0 } });
    expect(count()).toBe(before + 1);
  });

  it('turns a 5xx into a retryable DeliveryError and a refused token into a permanent one', async () => {
    const { linear, notifier } = await setUp();
    linear.failNext(503);
    const down = await notifier.post(to, starting).catch((e: unknown) => e);
    expect(down).toBeInstanceOf(DeliveryError);
    expect(down).toMatchObject({ code: 'unavailable', retryable: true });
    const stranger = createLinearNotifier({
      apiUrl: linear.url,
      token: 'lin_oauth_dummy_unknown',
      logger: captureLogs().logger,
    });
    const refused = await stranger.post(to, starting).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'forbidden', retryable: false });
  });

  it('cannot write into another workspace’s session', async () => {
    const { linear } = await setUp(undefined);
    const other = createLinearNotifier({
      apiUrl: linear.url,
      token: linear.workspaces[1]!.token,
      logger: captureLogs().logger,
    });
    const refused = await other.post(to, starting).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'not_found', retryable: false });
    expect(linear.activitiesOf('s1')).toEqual([]);
  });
});
