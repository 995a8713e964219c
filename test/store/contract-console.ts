/**
 * The console's server-side state: sessions, one-time values used once, and GitHub login
 * pins: the same behaviour on SQLite and PostgreSQL.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConsoleSessionRecord } from '../../src/core/ports/index.js';
import type { OpenedStore } from '../../src/store/index.js';
import type { HarnessFactory, StoreHarness } from './harness.js';

export function describeConsoleContract(createHarness: HarnessFactory): void {
  describe('console sessions, one-time values and login pins', () => {
    let temp: StoreHarness;
    let store: OpenedStore;
    beforeEach(async () => {
      temp = await createHarness();
      store = await temp.open();
    });
    afterEach(() => temp.cleanup());

    const session: ConsoleSessionRecord = {
      id: 'a'.repeat(64),
      operatorId: 'github:583231',
      operatorName: 'Octo Cat',
      via: 'github',
      role: 'viewer',
      grounds: 'org:acme',
      csrf: 'csrf-token',
      createdAt: 1_000,
      expiresAt: 5_000,
    };

    it('keeps a session until it ends or is removed', async () => {
      const sessions = store.consoleSessions!;
      await sessions.create(session);
      expect(await sessions.get(session.id, 4_999)).toEqual(session);
      expect(await sessions.get(session.id, 5_000)).toBeUndefined();
      expect(await sessions.get('b'.repeat(64), 2_000)).toBeUndefined();
      await sessions.remove(session.id);
      expect(await sessions.get(session.id, 2_000)).toBeUndefined();
      await sessions.create({ ...session, id: 'c'.repeat(64) });
      expect(await sessions.pruneExpired(6_000)).toBe(1);
    });

    it('a one-time value is good once, until it could no longer be used anyway', async () => {
      const used = store.usedOnce!;
      expect(await used.use('state-1', 2_000, 1_000)).toBe(true);
      expect(await used.use('state-1', 2_000, 1_500)).toBe(false);
      expect(await used.use('state-2', 2_000, 1_500)).toBe(true);
    });

    it('pins a login to the first account id it is seen with', async () => {
      const pins = store.loginPins!;
      expect(await pins.pin('trusted-login', '101', 1)).toBe('101');
      expect(await pins.pin('trusted-login', '202', 2)).toBe('101');
      expect(await pins.pin('other', '202', 3)).toBe('202');
    });
  });
}
