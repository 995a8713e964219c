/**
 * The Agent Run Service misbehaves for a while: it answers
 * 500, 503 or 429 with Retry-After, or drops connections (before or after doing the work).
 * The relay does not crash, every trigger is carried out once the service recovers (exactly
 * one run each, found by reconciliation when a create's answer was lost), each person whose
 * request waited is told once (not once per retry), and the tracker slows down on 429 and
 * catches up afterwards.
 */
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/wait-until.js';
import { appMentionEvent, eventCallback } from '../helpers/slack.js';
import { validGitHubBody } from './hostile-github.js';
import { relayPerTest } from '../helpers/relay.js';
import type { Relay } from '../helpers/relay.js';

const CREATE = 'POST /agent/runs';
const LIST = 'GET /agent/runs';
const WAIT_NOTICE = /unavailable right now/;

const start = relayPerTest({
  // Quick retries, and enough of them that no trigger gives up while the outage waits for
  // the slowest one (on a busy machine, seconds) to meet it.
  engineOptions: { inboxRetryDelaysMs: Array<number>(40).fill(250) },
});

const THREADS = ['1700002001.000100', '1700002002.000100', '1700002003.000100'];

/** Three Slack threads and one GitHub issue ask for a run. */
async function sendTriggers(r: Relay): Promise<void> {
  for (const ts of THREADS) {
    const body = eventCallback(appMentionEvent({ ts, text: `<@UBOT0001> fix thing ${ts}` }));
    expect((await r.postSlack(body)).status).toBe(200);
  }
  const res = await r.postGitHub(validGitHubBody(), {
    event: 'issue_comment',
    deliveryId: 'outage-gh-1',
  });
  expect(res.status).toBe(202);
}

/** One run per trigger, each stamped with a distinct relay_request. */
async function expectOneRunPerTrigger(r: Relay): Promise<void> {
  await waitUntil(() => r.emulator.runs.count() >= 4 && r.rows().runs >= 4, { timeoutMs: 15_000 });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const runs = r.emulator.runs.all();
  const requests = runs.map((run) => run.metadata?.relay_request);
  expect(runs).toHaveLength(4);
  expect(new Set(requests).size).toBe(4);
  expect(r.rows().runs).toBe(4);
}

/** Attempts made at each trigger so far: its inbox row, read through a second connection. */
function inboxAttempts(r: Relay): number[] {
  const db = new BetterSqlite3(r.databasePath, { readonly: true });
  try {
    const rows = db.prepare('select attempts from inbox').all() as { attempts: number }[];
    return rows.map((row) => row.attempts);
  } finally {
    db.close();
  }
}

/**
 * How often each thread was told its request waits: posted, or (the usual case) edited into
 * the "Starting…" status message posted when the trigger was picked up.
 */
function waitNotices(r: Relay): { slack: Record<string, number>; github: number } {
  const slack: Record<string, number> = {};
  const calls = [...r.slack.okCallsTo('chat.postMessage'), ...r.slack.okCallsTo('chat.update')];
  for (const call of calls) {
    if (!WAIT_NOTICE.test(String(call.params.text))) continue;
    const edited = r.slack.message(String(call.params.channel), String(call.params.ts));
    const ts = String(call.method === 'chat.update' ? edited?.thread_ts : call.params.thread_ts);
    slack[ts] = (slack[ts] ?? 0) + 1;
  }
  const github = [...r.github.comments.values()]
    .flatMap((c) => [c.firstBody, ...c.edits])
    .filter((body) => WAIT_NOTICE.test(body)).length;
  return { slack, github };
}

describe('the service answers errors for a while', () => {
  it.each([
    ['503 with Retry-After', 503, 1],
    ['429 with Retry-After', 429, 1],
    ['500', 500, undefined],
  ])(
    '%s: told once, carried out once after recovery',
    async (_name, status, retryAfterSeconds) => {
      const r = await start();
      // The service is down until every trigger has met the outage and been tried again after
      // that (its wait notice is queued at the first refusal; "once" must mean once, not once
      // per attempt). A fixed number of faults would not do: on a busy machine the GitHub
      // trigger (token exchange, permission check) may reach the service only after the
      // Slack triggers' attempts used them all up, and would then never be told.
      r.emulator.faults.failNext(1_000, status, {
        route: CREATE,
        ...(retryAfterSeconds ? { retryAfterSeconds } : {}),
      });
      await sendTriggers(r);
      await waitUntil(
        () => {
          const tried = inboxAttempts(r);
          return (
            tried.length === 4 &&
            tried.every((n) => n >= 2) &&
            r.emulator.requests.get(CREATE) >= 14
          );
        },
        { timeoutMs: 20_000, message: 'every trigger refused, then tried again' },
      );
      r.emulator.faults.clear(); // the service recovers
      await expectOneRunPerTrigger(r);
      expect(r.emulator.requests.get(CREATE)).toBeGreaterThanOrEqual(14 + 4);
      // "Starting…" in each thread, then the wait notice and the run edited into it. Each
      // notice was queued before its run was created, so all are out once the outbox is empty.
      await waitUntil(async () => (await r.service.store.outboxQueue.depth()) === 0);
      const notices = waitNotices(r);
      expect(notices.slack).toEqual(Object.fromEntries(THREADS.map((ts) => [ts, 1])));
      expect(notices.github).toBe(1);
      expect((await fetch(`${r.url}/healthz`)).status).toBe(200);
    },
    45_000,
  );

  it('connections dropped before the service read them: carried out once after recovery', async () => {
    const r = await start();
    r.emulator.faults.dropNext(8, { route: CREATE });
    await sendTriggers(r);
    await expectOneRunPerTrigger(r);
    expect(r.emulator.faults.snapshot().rules).toEqual([]);
  }, 25_000);

  it('connections dropped after the service created the run: reconciled, never a second run', async () => {
    const r = await start();
    r.emulator.faults.dropNext(4, { route: CREATE, afterProcessing: true });
    await sendTriggers(r);
    await expectOneRunPerTrigger(r);
    expect(r.emulator.faults.snapshot().rules).toEqual([]);
    // Each lost answer was followed by a search for the run by its relay_request stamp.
    expect(r.emulator.requests.get(LIST)).toBeGreaterThanOrEqual(4);
    expect(r.emulator.requests.get(CREATE)).toBe(4);
  }, 25_000);
});

describe('a lost create answer, and the run ends before the search finds it', () => {
  it('the found run is recorded as ended: one status message, one outcome reply', async () => {
    // The client's own search right after the lost answer returns the ended run; the
    // tracker sees that no outcome was sent for it yet (notifiedState) and sends it once.
    // Runs end within ~50 ms; every request to the service takes 300 ms, so the run the
    // client finds by its stamp (right after the lost answer) has already SUCCEEDED.
    const r = await start({
      timings: { queuedMs: 10, pendingMs: 10, claimedMs: 10, runMs: 10, slowRunMs: 10 },
    });
    r.emulator.faults.setLatency(300);
    r.emulator.faults.dropNext(1, { route: CREATE, afterProcessing: true });
    const ts = THREADS[0]!;
    const body = eventCallback(appMentionEvent({ ts, text: `<@UBOT0001> fix thing ${ts}` }));
    expect((await r.postSlack(body)).status).toBe(200);
    const posts = () => r.slack.okCallsTo('chat.postMessage');
    await waitUntil(() => posts().length >= 2, { timeoutMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // a repeat would show now
    expect(r.emulator.runs.all().map((x) => x.state)).toEqual(['SUCCEEDED']);
    expect(r.emulator.requests.get(CREATE)).toBe(1);
    const texts = posts().map((c) => String(c.params.text));
    expect(texts).toHaveLength(2);
    expect(texts.filter((t) => /<@UALICE01>/.test(t))).toHaveLength(1); // the outcome reply
    expect(texts.filter((t) => /Succeeded/i.test(t)).length).toBeGreaterThanOrEqual(1);
  }, 20_000);
});

describe('the tracker under 429', () => {
  it('slows down while the list endpoint answers 429, then catches up: every outcome once', async () => {
    const r = await start({ timings: { runMs: 2_500 } });
    await sendTriggers(r);
    await waitUntil(() => r.rows().runs === 4, { timeoutMs: 8_000 });
    // Baseline: list requests in one second of normal tracking (100 ms interval).
    const base0 = r.emulator.requests.get(LIST);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const baseline = r.emulator.requests.get(LIST) - base0;
    expect(baseline).toBeGreaterThanOrEqual(4);

    const faults = 6;
    const started = Date.now();
    const at0 = r.emulator.requests.get(LIST);
    r.emulator.faults.failNext(faults, 429, { route: LIST, retryAfterSeconds: 1 });
    await waitUntil(() => r.emulator.faults.snapshot().rules.length === 0, { timeoutMs: 15_000 });
    const elapsed = Date.now() - started;
    const during = r.emulator.requests.get(LIST) - at0;
    // Honouring Retry-After: 6 answers of 429 take at least ~5 s (at full speed: 0.6 s).
    expect(elapsed).toBeGreaterThanOrEqual(4_000);
    expect(during / (elapsed / 1000)).toBeLessThan(baseline / 2);

    // Catch up: every run's outcome reaches its thread exactly once.
    await waitUntil(() => r.emulator.runs.all().every((x) => x.state === 'SUCCEEDED'), {
      timeoutMs: 8_000,
    });
    const outcomes = () => [
      ...r.slack
        .okCallsTo('chat.postMessage')
        .filter((c) => /<@UALICE01>/.test(String(c.params.text))),
      ...[...r.github.comments.values()].filter((c) => c.body.startsWith('@alice ')),
    ];
    await waitUntil(() => outcomes().length === 4, { timeoutMs: 8_000 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(outcomes()).toHaveLength(4);
  }, 30_000);
});
