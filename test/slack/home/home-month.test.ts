import { describe, expect, it } from 'vitest';
import { buildHomeView } from '../../../src/slack/home/home-view.js';
import { loadHomeModel, RECENT } from '../../../src/slack/home/home-model.js';
import { createSlackHomeSource } from '../../../src/slack/home/store-home-source.js';
import type { WebClient } from '../../../src/slack/api/web-client.js';
import { monthStartUtc } from '../../../src/core/place.js';
import { silentLogger } from '../../../src/service/logger.js';
import { openTempStore } from '../../runs/fixtures.js';

describe("App Home: the viewer's month", () => {
  it('says what their runs this month cost, approximately', () => {
    const view = buildHomeView({
      mine: [],
      month: { name: 'November 2026', spentUsd: 3.1, runs: 4 },
      channels: [],
      showChannels: false,
      personal: {},
    });
    expect(JSON.stringify(view.blocks)).toContain('November 2026 (UTC): about $3.10 over 4 runs');
  });

  it('says nothing when none of their runs reported a cost', () => {
    const view = buildHomeView({ mine: [], channels: [], showChannels: false, personal: {} });
    expect(JSON.stringify(view.blocks)).not.toContain('(UTC):');
  });
});

describe("App Home: the viewer's month from the store", () => {
  it('counts all their runs this month, not only the 200 most recent the tab lists', async () => {
    const temp = await openTempStore();
    try {
      const { store } = temp;
      const now = Date.parse('2030-03-20T12:00:00Z');
      const clock = { now: () => now };
      const put = (i: number, requester: string, costUsd: number | undefined, createdAt: number) =>
        store.runs.insert({
          runId: `home-${requester}-${i}`,
          threadKey: `slack:T1:C1:1700000000.${String(i).padStart(6, '0')}`,
          platform: 'slack',
          requestId: `req-home-${requester}-${i}`,
          requester: { id: requester },
          title: `run ${i}`,
          state: 'SUCCEEDED',
          applied: [],
          ...(costUsd === undefined ? {} : { costUsd }),
          nextCheckAt: 0,
          checkIntervalMs: 1_000,
          tracked: false,
          createdAt,
          updatedAt: createdAt,
        });
      // 250 runs of the viewer this month, 10 of them without a reported cost...
      for (let i = 0; i < 250; i += 1)
        await put(i, 'U1', i < 10 ? undefined : 0.1, now - 3_600_000 + i);
      // ...one last month, and someone else's: neither counts.
      await put(900, 'U1', 50, monthStartUtc(now) - 1);
      await put(901, 'U2', 7, now);
      const model = await loadHomeModel(
        {
          source: createSlackHomeSource({ store, clock }),
          clock,
          logger: silentLogger(),
        },
        {} as WebClient,
        'T1',
        'U1',
      );
      expect(model.mine.length).toBeLessThanOrEqual(RECENT);
      expect(model.month).toEqual({ name: 'March 2030', spentUsd: 24, runs: 240 });
    } finally {
      await temp.cleanup();
    }
  });
});
