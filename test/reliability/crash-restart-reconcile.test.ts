/**
 * A kill while a create is in flight, the run ending while the relay is down: the restarted
 * relay finds the run by its relay_request stamp (reconciliation) and the requester still
 * gets its outcome reply, once (src/runs/record-run.ts observes the found run at once).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/wait-until.js';
import { crashTriggers, deliverAll } from './crash-triggers.js';
import { startCrashWorld } from './crash-world.js';
import type { CrashWorld } from './crash-world.js';

let world: CrashWorld | undefined;
const dir = mkdtempSync(join(tmpdir(), 'relay-crash-r-'));
afterEach(async () => {
  await world?.close();
  world = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a run reconciled after it ended', () => {
  it('still gets its outcome reply (crash while its create was in flight)', async () => {
    // The service creates the run but the relay is killed before the answer arrives; the
    // run ends (in ~0.5 s) while the relay is down; the restarted relay finds it.
    const w = (world = await startCrashWorld(join(dir, 'ended.db'), { runMs: 200 }));
    await w.start();
    w.freezeAgentAnswers();
    const [first] = crashTriggers();
    await deliverAll([first!], w.url);
    await waitUntil(() => w.emulator.runs.count() === 1, { timeoutMs: 8_000 });
    await w.kill();
    await waitUntil(() => w.emulator.runs.all()[0]?.state === 'SUCCEEDED', { timeoutMs: 5_000 });
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    await w.start();
    await waitUntil(() => w.db().runs === 1, { timeoutMs: 8_000 });
    await waitUntil(() => w.outcomes().length === 1, { timeoutMs: 8_000 }).catch((err: unknown) => {
      throw new Error(`${String(err)}\n${w.trace('S0a')}`);
    });
    // Exactly once: nothing more arrives while the tracker keeps looking.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(w.outcomes()).toHaveLength(1);
    expect(w.countPerToken(w.statusPosts())).toEqual({ S0a: 1 });
  }, 30_000);
});
