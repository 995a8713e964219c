/**
 * App Home refreshes within Slack's limits: a burst of state changes republishes a person's
 * tab once per window, and a person who never opened the tab is never published to. Driven
 * through the real Bolt receiver (the `app_home_opened` event) against the fake Web API, with
 * an in-memory HomeSource (the port the service implements over the store).
 */
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/core/ports/index.js';
import type { RunRecord } from '../../../src/core/ports/index.js';
import { fixedBotToken } from '../../../src/slack/api/bot-tokens.js';
import type { HomeSource } from '../../../src/slack/home/home-source.js';
import { createSlackHome } from '../../../src/slack/home/slack-home.js';
import { appHomeOpenedEvent } from '../../helpers/slack-surfaces.js';
import { eventCallback, postSlack } from '../../helpers/slack.js';
import { createRecordingLogger } from '../../helpers/test-logger.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { startIngress } from '../ingress/harness.js';
import { worldPerTest } from '../../helpers/world-per-test.js';

function run(runId: string, requester: string, state: string): RunRecord {
  return {
    runId,
    threadKey: `slack:T0000001:CGENERAL1:1700000001.00010${runId.length}`,
    platform: 'slack',
    requestId: `req-${runId}`,
    requester: { id: requester },
    title: `Run ${runId}`,
    state,
    applied: [],
    nextCheckAt: 0,
    checkIntervalMs: 1000,
    tracked: state === 'INPROGRESS',
    createdAt: 1,
    updatedAt: 1,
  };
}

const source: HomeSource = {
  recentRuns: () => Promise.resolve([run('r1', 'UALICE01', 'INPROGRESS')]),
  runDetail: () => Promise.resolve(undefined),
  personalDefaults: () => Promise.resolve({}),
  setPersonalDefaults: () => Promise.resolve(),
};

/**
 * The refresh window. Long enough that a publish sent at once on a change, instead of after
 * the window, arrives before it ends even when the first publish was slow on a busy machine.
 */
const WINDOW_MS = 1_000;

const start = worldPerTest(startIngress);

describe('App Home refresh', () => {
  it('publishes once per window however many changes arrive, and only to people who opened it', async () => {
    const logger = createRecordingLogger();
    // The harness starts the fake Web API; the home reads its URL when it first calls.
    const apiUrlHolder: { url?: string } = {};
    const home = createSlackHome({
      source,
      tokens: fixedBotToken('xoxb-test-token'),
      get apiUrl() {
        return apiUrlHolder.url;
      },
      logger,
      clock: systemClock,
      minRefreshMs: WINDOW_MS,
    });
    const h = await start({ home });
    apiUrlHolder.url = h.api.url;
    const publishes = () => h.api.okCallsTo('views.publish');

    // The first publish starts once the event arrives, so no earlier than this.
    const openedAt = Date.now();
    await postSlack(h.url, eventCallback(appHomeOpenedEvent({ user: 'UALICE01' })));
    await waitUntil(() => publishes().length === 1);
    expect(publishes()[0]?.params.user_id).toBe('UALICE01');

    const key = 'slack:T0000001:CGENERAL1:1700000001.000100';
    for (let i = 0; i < 10; i++) home.runChanged(key, 'UALICE01');
    home.runChanged(key, 'UBOB00001'); // never opened the tab
    await waitUntil(() => publishes().length === 2, { timeoutMs: WINDOW_MS + 5_000 });
    // Longer than a window: a third publish (the burst published twice), or one for Bob,
    // would show by now.
    await new Promise((r) => setTimeout(r, WINDOW_MS + 200));
    expect(publishes().map((c) => c.params.user_id)).toEqual(['UALICE01', 'UALICE01']);
    // Not at once: the second waited for the window, counted from when the first started.
    // (The gap between the two arrivals also holds the first publish's own latency, which
    // grows on a loaded machine, so the start of the first is bounded by `openedAt`.)
    expect((publishes()[1]?.at ?? 0) - openedAt).toBeGreaterThanOrEqual(WINDOW_MS);
  });
});
