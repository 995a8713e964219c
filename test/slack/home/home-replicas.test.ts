/**
 * App Home with replicas: who has the tab open is kept in the database, so a replica other
 * than the one that received `app_home_opened` refreshes the tab when it sees a run change.
 * Two App Homes (two replicas) on one SQLite store, through the real Bolt receiver and the
 * fake Web API; the HomeSource is the service's own, over the store.
 */
import { afterEach, expect, it } from 'vitest';
import { systemClock } from '../../../src/core/ports/index.js';
import { createSlackHomeSource } from '../../../src/slack/home/store-home-source.js';
import { fixedBotToken } from '../../../src/slack/api/bot-tokens.js';
import { createSlackHome } from '../../../src/slack/home/slack-home.js';
import type { OpenedStore } from '../../../src/store/index.js';
import { appHomeOpenedEvent } from '../../helpers/slack-surfaces.js';
import { eventCallback, postSlack } from '../../helpers/slack.js';
import { createRecordingLogger } from '../../helpers/test-logger.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { createSqliteHarness } from '../../store/harness.js';
import type { SqliteHarness } from '../../store/harness.js';
import type { IngressHarness } from '../ingress/harness.js';
import { startIngress } from '../ingress/harness.js';

let h: IngressHarness | undefined;
let temp: SqliteHarness | undefined;
afterEach(async () => {
  await h?.close();
  await temp?.cleanup();
});

it('a replica that did not see the tab opened refreshes it when it sees a run change', async () => {
  temp = await createSqliteHarness();
  const stores: OpenedStore[] = [await temp.open(), await temp.open()];
  const apiUrl: { url?: string } = {};
  const [received, other] = stores.map((store) =>
    createSlackHome({
      source: createSlackHomeSource({ store, clock: systemClock }),
      tokens: fixedBotToken('xoxb-test-token'),
      get apiUrl() {
        return apiUrl.url;
      },
      logger: createRecordingLogger(),
      clock: systemClock,
      minRefreshMs: 50,
    }),
  );
  h = await startIngress({ home: received! });
  apiUrl.url = h.api.url;
  const publishes = () => h!.api.okCallsTo('views.publish').map((c) => c.params.user_id);

  await postSlack(h.url, eventCallback(appHomeOpenedEvent({ user: 'UALICE01' })));
  await waitUntil(() => publishes().length === 1);

  const key = 'slack:T0000001:CGENERAL1:1700000001.000100';
  other!.runChanged(key, 'UBOB00001'); // never opened the tab
  other!.runChanged(key, 'UALICE01');
  await waitUntil(() => publishes().length === 2, { timeoutMs: 3_000 });
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(publishes()).toEqual(['UALICE01', 'UALICE01']);
  await Promise.all([received!.stop(), other!.stop()]);
});

it('a replica asks the database who opened the tab at most once per person per refresh interval', async () => {
  temp = await createSqliteHarness();
  const stores: OpenedStore[] = [await temp.open(), await temp.open()];
  const apiUrl: { url?: string } = {};
  let now = Date.parse('2030-01-01T00:00:00.000Z');
  const clock = { now: () => now };
  const reads: string[] = [];
  const [received, other] = stores.map((store, i) => {
    const source = createSlackHomeSource({ store, clock });
    return createSlackHome({
      source:
        i === 0
          ? source
          : {
              ...source,
              homeOpenedAt: (team, user) => {
                reads.push(user);
                return source.homeOpenedAt!(team, user);
              },
            },
      tokens: fixedBotToken('xoxb-test-token'),
      get apiUrl() {
        return apiUrl.url;
      },
      logger: createRecordingLogger(),
      clock,
      minRefreshMs: 5_000,
    });
  });
  h = await startIngress({ home: received! });
  apiUrl.url = h.api.url;
  const publishes = () => h!.api.okCallsTo('views.publish').map((c) => c.params.user_id);
  const key = 'slack:T0000001:CGENERAL1:1700000001.000100';

  // Alice has not opened the tab: the other replica asks once, and not again for a while.
  other!.runChanged(key, 'UALICE01');
  await waitUntil(() => reads.length === 1);
  await postSlack(h.url, eventCallback(appHomeOpenedEvent({ user: 'UALICE01' })));
  await waitUntil(() => publishes().length === 1);
  now += 4_000;
  other!.runChanged(key, 'UALICE01');
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(reads).toEqual(['UALICE01']);
  expect(publishes()).toEqual(['UALICE01']);

  // Once the interval has passed it asks again, sees the opening and refreshes her tab.
  now += 1_000;
  other!.runChanged(key, 'UALICE01');
  await waitUntil(() => publishes().length === 2, { timeoutMs: 3_000 });
  expect(reads).toEqual(['UALICE01', 'UALICE01']);
  await Promise.all([received!.stop(), other!.stop()]);
});
