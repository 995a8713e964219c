/**
 * The session keeper's facts, written where the runs commit: on a platform that keeps its
 * agent sessions alive (`sessionKeepAlive`, here given to the recording Slack notifier's
 * platform), a new run's session works, a Stop's answer ends its turn in the same transaction
 * (before the tracker has seen the run wait), and the keeper then queues nothing for it;
 * a platform without the capability keeps no session facts at all.
 */
import { describe, expect, it } from 'vitest';
import { PLATFORM_CAPABILITIES } from '../../helpers/platform-capabilities.js';
import { createSessionKeeper } from '../../../src/runs/tracker/session-keeper.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { createTestLogger, handle, slackMention, slackReply, testEnvPerTest } from '../fixtures.js';

const KEEP_ALIVE_MS = 60_000;
const keeping = {
  ...PLATFORM_CAPABILITIES,
  slack: { ...PLATFORM_CAPABILITIES.slack, sessionKeepAlive: true },
};

describe('session keeper: the working state the runs commit', () => {
  const env = testEnvPerTest({ deps: { capabilities: keeping } });

  it('a new run works until a Stop is answered; then no keep-alive is queued', async () => {
    const trigger = slackMention({ text: 'tidy the README [slow]' });
    await handle(env, trigger);
    const sessions = env.store.linearSessions;
    const later = Date.now() + 2 * KEEP_ALIVE_MS;
    const quiet = async () => (await sessions.quiet(later, 100)).map((q) => q.threadKey);
    expect(await quiet()).toEqual([trigger.threadKey]);
    const keeper = createSessionKeeper({
      store: env.store,
      clock: { now: () => later },
      log: createTestLogger(),
      keepAliveMs: KEEP_ALIVE_MS,
    });

    // A run still being set up cannot be stopped (the Stop is answered so and its turn goes on).
    const [created] = await env.store.runs.listByThread(trigger.threadKey, 1);
    await waitUntil(() => env.emulator.runs.get(created!.runId)?.state === 'INPROGRESS');
    await handle(env, slackReply(trigger.threadKey, { text: 'stop' }));
    const [run] = await env.store.runs.listByThread(trigger.threadKey, 1);
    // The tracker has not looked since: the record still says the run works.
    expect(['QUEUED', 'PENDING', 'CLAIMED', 'INPROGRESS']).toContain(run!.state);
    expect(await quiet()).toEqual([]);
    expect(await keeper.sweep()).toBe(0);
    const queued = await env.store.outboxQueue.list({ threadKey: trigger.threadKey });
    expect(queued.map((item) => item.payload.kind)).not.toContain('keep_alive');
    // The Stop's answer was queued in that same transaction.
    expect(queued.some((item) => item.payload.message?.type === 'notice')).toBe(true);
  });
});

describe('session keeper: a platform without sessionKeepAlive', () => {
  const env = testEnvPerTest();

  it('keeps no session facts for its runs', async () => {
    const trigger = slackMention({ text: 'tidy the README [slow]' });
    await handle(env, trigger);
    expect(await env.store.linearSessions.quiet(Number.MAX_SAFE_INTEGER, 100)).toEqual([]);
  });
});
