/**
 * Slack's limit on history reads for an app distributed outside the Slack Marketplace without
 * its approval, as the fake Slack follows it (`historyLimited`: one `conversations.replies` a
 * minute per workspace, at most 15 messages a request), from Slack's changelog:
 * https://docs.slack.dev/changelog/2025/05/29/rate-limit-changes-for-non-marketplace-apps
 *
 * The relay asks for pages of 200; Slack answers 15 and refuses the next page within the
 * minute. The run still gets the messages of the page it was given (fewer, not none), the log
 * says why once, and from then on the relay reads one page of 15 in that workspace.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeSlackApi, type FakeSlackApi } from '../../../src/fakes/slack-web-api.js';
import type { LogLine } from '../../helpers/test-logger.js';
import { notifierLoggingTo, seedThread } from './thread-reads.js';

let api: FakeSlackApi;
let now = Date.parse('2026-06-01T09:00:00Z');
beforeEach(async () => {
  api = await startFakeSlackApi({ historyLimited: true, clock: () => now });
});
afterEach(() => api.close());

describe("Slack's limit on history reads (apps outside the Marketplace)", () => {
  it('keeps the page Slack gave when it refuses the next, and reads one page of 15 after', async () => {
    const lines: LogLine[] = [];
    const notifier = notifierLoggingTo(api, lines);
    const key = seedThread(api, 40, { tick: () => (now += 1000) });

    const first = (await notifier.fetchThreadMessages?.(key)) ?? [];
    const reads = api.callsTo('conversations.replies');
    expect(reads.map((c) => c.status)).toEqual([200, 429]);
    expect(first.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThanOrEqual(15);
    const said = lines.filter((l) => l.level === 'warn' && /Marketplace/.test(l.msg ?? ''));
    expect(said).toHaveLength(1);

    now += 61_000;
    const again = (await notifier.fetchThreadMessages?.(key)) ?? [];
    const later = api.callsTo('conversations.replies').slice(2);
    expect(later.map((c) => [c.status, Number(c.params.limit)])).toEqual([[200, 15]]);
    expect(again.length).toBeGreaterThan(0);
  });

  it('the fake refuses a second read within the minute, in each workspace apart', async () => {
    const read = (token: string) =>
      fetch(`${api.url}conversations.replies`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ channel: 'CGENERAL1', ts: '1.0' }),
      });
    expect((await read('xoxb-a')).status).toBe(200);
    const refused = await read('xoxb-a');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await read('xoxb-b')).status).toBe(200);
  });
});
