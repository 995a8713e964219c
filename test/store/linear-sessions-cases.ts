/**
 * The behaviour every LinearSessions (the Linear notifier's session memory) must have: the
 * store's, on SQLite and PostgreSQL (contract-linear-sessions.ts), and the in-process one.
 * `second` is another handle on the same memory (another replica's store on the database).
 */
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { LinearSessions } from '../../src/core/ports/index.js';

export function linearSessionsCases(
  first: () => LinearSessions,
  second: () => Promise<LinearSessions>,
): void {
  // Fresh keys per test: a shared PostgreSQL schema keeps the table between tests.
  const key = () => `linear:org-acme:${randomUUID()}`;
  const mine = (keys: string[], found: { threadKey: string; lastWrittenAt: number }[]) =>
    found.filter((q) => keys.includes(q.threadKey));

  it('a working session is quiet until something is written; a run no longer working is not', async () => {
    const memory = first();
    const [a, b, c] = [key(), key(), key()];
    await memory.setWorking(a, true, 1_000);
    await memory.setWorking(b, true, 2_000);
    await memory.written(c, 500); // written to, never working
    expect(mine([a, b, c], await memory.quiet(1_500, 100))).toEqual([
      { threadKey: a, lastWrittenAt: 1_000 },
    ]);
    expect(mine([a, b, c], await memory.quiet(5_000, 100))).toEqual([
      { threadKey: a, lastWrittenAt: 1_000 },
      { threadKey: b, lastWrittenAt: 2_000 },
    ]);
    await memory.written(a, 3_000);
    // An older time than the one kept (another replica's late report) changes nothing.
    await memory.written(a, 2_500);
    await memory.setWorking(b, true, 1_800);
    expect(mine([a, b, c], await memory.quiet(5_000, 100))).toEqual([
      { threadKey: b, lastWrittenAt: 2_000 },
      { threadKey: a, lastWrittenAt: 3_000 },
    ]);
    await memory.setWorking(b, false, 4_000);
    expect(mine([a, b, c], await memory.quiet(5_000, 100))).toEqual([
      { threadKey: a, lastWrittenAt: 3_000 },
    ]);
    await memory.setWorking(b, true, 4_500);
    expect(mine([a, b, c], await memory.quiet(5_000, 100))).toEqual([
      { threadKey: a, lastWrittenAt: 3_000 },
      { threadKey: b, lastWrittenAt: 4_500 },
    ]);
    expect(await memory.quiet(5_000, 0)).toEqual([]);
  });

  it('one of two replicas claims a keep-alive; a claim on stale facts or an idle run fails', async () => {
    const memory = first();
    const other = await second();
    const [a, idle] = [key(), key()];
    await memory.setWorking(a, true, 1_000);
    expect(await memory.keepAliveUntil(a)).toBe(0);
    const claims = await Promise.all([
      memory.claimKeepAlive(a, 1_000, 9_000, 19_000),
      other.claimKeepAlive(a, 1_000, 9_001, 19_001),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    const until = await other.keepAliveUntil(a);
    expect([19_000, 19_001]).toContain(until);
    // The claim counts as a write: the session is quiet from then on.
    expect(mine([a], await memory.quiet(9_000, 10))).toEqual([]);
    const [claimed] = mine([a], await other.quiet(20_000, 10));
    expect([9_000, 9_001]).toContain(claimed!.lastWrittenAt);
    // Facts read before that claim are stale now.
    expect(await memory.claimKeepAlive(a, 1_000, 20_000, 30_000)).toBe(false);
    await memory.keepAliveDone(a);
    expect(await other.keepAliveUntil(a)).toBe(0);
    // A run that stopped working gets no keep-alive, whatever was read before.
    await memory.setWorking(a, false, 21_000);
    expect(await other.claimKeepAlive(a, claimed!.lastWrittenAt, 22_000, 32_000)).toBe(false);
    expect(await memory.claimKeepAlive(idle, 0, 22_000, 32_000)).toBe(false);
    expect(await memory.keepAliveUntil(idle)).toBe(0);
  });

  it('a claim in flight stays visible when the run stops working', async () => {
    const memory = first();
    const a = key();
    await memory.setWorking(a, true, 1_000);
    expect(await memory.claimKeepAlive(a, 1_000, 5_000, 15_000)).toBe(true);
    await memory.setWorking(a, false, 6_000);
    expect(await (await second()).keepAliveUntil(a)).toBe(15_000);
    await memory.keepAliveDone(a);
    expect(await memory.keepAliveUntil(a)).toBe(0);
  });

  it('the Stop mark is taken once, by one of two replicas', async () => {
    const memory = first();
    const other = await second();
    const [a, never] = [key(), key()];
    expect(await memory.takeStopped(never, 10)).toBe(false);
    await memory.markStopped(a, 10);
    await memory.markStopped(a, 11);
    const takes = await Promise.all([memory.takeStopped(a, 20), other.takeStopped(a, 20)]);
    expect(takes.filter(Boolean)).toHaveLength(1);
    expect(await memory.takeStopped(a, 30)).toBe(false);
    // A mark on a working session leaves its keep-alive facts alone, and the reverse.
    await memory.setWorking(a, true, 40);
    await other.markStopped(a, 50);
    await memory.setWorking(a, false, 60);
    expect(await other.takeStopped(a, 70)).toBe(true);
    expect(mine([a], await memory.quiet(100, 10))).toEqual([]);
  });
}
