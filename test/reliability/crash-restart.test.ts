/**
 * Crash and restart. The service runs as a child process (its
 * own process group) against an emulator and fake Slack/GitHub APIs living in THIS process,
 * so they survive the kills. 100 triggers across 50 threads; the service is killed with
 * SIGKILL three times, at three moments, and restarted on the same SQLite file:
 *   1. triggers acknowledged and waiting in the inbox;
 *   2. creates in flight: the service creates the runs but its answers are held at a gate,
 *      so the relay never records them (reconciliation by relay_request must find them);
 *   3. notifications pending in the outbox and in flight: this kill falls anywhere, also
 *      between a platform's answer to a post and the relay recording it (the next attempt
 *      finds that post by its mark instead of posting again; crash-mid-post.test.ts pins
 *      that moment down).
 * Then: every trigger led to exactly one run (by metadata.relay_request), every run's final
 * notification arrived exactly once, no status message was posted twice, and no log line of
 * any of the four processes carries a secret.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { waitUntil } from '../helpers/wait-until.js';
import { crashTriggers, deliverAll } from './crash-triggers.js';
import { startCrashWorld } from './crash-world.js';
import type { CrashWorld } from './crash-world.js';
import { leakedSecrets } from '../helpers/secrets.js';

const dir = mkdtempSync(join(tmpdir(), 'relay-crash-'));
let world: CrashWorld | undefined;
afterAll(async () => {
  await world?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('kill -9 at three moments, restart on the same database: once per trigger, once per notification', async () => {
  const w = (world = await startCrashWorld(join(dir, 'relay.db')));
  const triggers = crashTriggers();
  const [first, second, third] = [
    triggers.slice(0, 40),
    triggers.slice(40, 70),
    triggers.slice(70),
  ];

  // 1. Triggers in the inbox: slow creates, deliver 40, kill as soon as all are acknowledged.
  w.emulator.faults.setLatency(300);
  await w.start();
  await deliverAll(first, w.url);
  await w.kill();
  const afterKill1 = w.db();
  expect(afterKill1.inboxOpen).toBeGreaterThan(0);

  // 2. Creates in flight: the service creates the runs but its answers are held; kill.
  w.emulator.faults.setLatency(0);
  await w.start();
  const creates0 = w.emulator.requests.get('POST /agent/runs');
  w.freezeAgentAnswers();
  await deliverAll(second, w.url);
  await waitUntil(() => w.emulator.requests.get('POST /agent/runs') >= creates0 + 3, {
    timeoutMs: 8_000,
  });
  await new Promise((resolve) => setTimeout(resolve, 200));
  await w.kill();
  const recorded = new Set(w.db().requestIds);
  const unrecorded = w.emulator.runs
    .all()
    .filter((r) => !recorded.has(r.metadata?.relay_request ?? ''));
  expect(unrecorded.length).toBeGreaterThanOrEqual(3); // runs the crashed process never learned of

  // 3. Notifications pending: deliver the rest, kill while outcomes flow, wherever it falls.
  await w.start();
  await deliverAll(third, w.url);
  await waitUntil(() => w.outcomes().length >= 20 && w.db().outboxPending > 0, {
    timeoutMs: 12_000,
    intervalMs: 10,
  });
  await w.killAnywhere();
  expect(w.db().outboxPending).toBeGreaterThan(0);

  // 4. The last restart finishes the work.
  await w.start();
  await waitUntil(
    () =>
      w.emulator.runs.count() === 100 &&
      w.emulator.runs.all().every((r) => r.state === 'SUCCEEDED') &&
      w.outcomes().length >= 100,
    { timeoutMs: 20_000, intervalMs: 50 },
  ).catch((err: unknown) => {
    const found = unrecorded.map((r) => r.title);
    const missing = (JSON.parse(w.summary()) as { missingOutcomes: string[] }).missingOutcomes;
    const traces = missing.map((t) => `${t}: ${w.trace(t)}`).join('\n');
    throw new Error(
      `${String(err)}\n${w.summary()}\nreconciled after kill 2: ${found.join(', ')}\n${traces}`,
    );
  });
  await new Promise((resolve) => setTimeout(resolve, 1_000)); // anything duplicated would show now
  await w.stop();

  // Exactly one run per trigger, found by its relay_request stamp.
  const runs = w.emulator.runs.all();
  expect(runs).toHaveLength(100);
  const stamps = runs.map((r) => r.metadata?.relay_request ?? '');
  expect(new Set(stamps).size).toBe(100);
  expect(stamps.map((s) => s.replace(/^(slack|github):/, '')).sort()).toEqual(
    triggers.map((t) => t.deliveryId).sort(),
  );
  expect(w.db().runs).toBe(100);

  // Every run's final notification exactly once; every status message posted exactly once.
  const tokens = triggers.map((t) => t.token).sort();
  const once = Object.fromEntries(tokens.map((t) => [t, 1]));
  const odd = (counts: Record<string, number>) =>
    Object.keys(counts).filter((t) => counts[t] !== 1);
  const outcomes = w.countPerToken(w.outcomes());
  const statuses = w.countPerToken(w.statusPosts());
  const traces = [...odd(outcomes), ...odd(statuses)].map((t) => `${t}: ${w.trace(t)}`).join('\n');
  expect(outcomes, traces).toEqual(once);
  expect(statuses, traces).toEqual(once);
  // …and each status message was edited to the final state.
  expect(w.finalStatuses().every((text) => /Succeeded/.test(text))).toBe(true);

  // No log line of the four processes (debug level) carries a secret.
  expect(w.logLines()).toBeGreaterThan(500);
  expect(leakedSecrets(w.logText())).toEqual([]);
}, 75_000);
