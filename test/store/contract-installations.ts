/**
 * Slack installations (any number of workspaces) and a workspace's recent runs: the same
 * behaviour on SQLite and PostgreSQL.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OpenedStore } from '../../src/store/index.js';
import type { HarnessFactory, StoreHarness } from './harness.js';
import { sampleRun } from './harness.js';

export function describeInstallationsContract(createHarness: HarnessFactory): void {
  describe('installations', () => {
    let temp: StoreHarness;
    let store: OpenedStore;
    beforeEach(async () => {
      temp = await createHarness();
      store = await temp.open();
    });
    afterEach(() => temp.cleanup());

    const one = { platform: 'slack' as const, enterpriseId: '', teamId: 'T1' };
    const org = { platform: 'slack' as const, enterpriseId: 'E1', teamId: '' };

    it('saves, replaces on reinstall, reads and removes by workspace or organisation', async () => {
      await store.installations.save(
        { ...one, isEnterpriseInstall: false, sealed: 'sealed-1', installedBy: 'U1' },
        10,
      );
      await store.installations.save(
        { ...org, isEnterpriseInstall: true, sealed: 'sealed-org' },
        11,
      );
      await store.installations.save(
        { ...one, isEnterpriseInstall: false, sealed: 'sealed-2', installedBy: 'U2' },
        20,
      );
      expect(await store.installations.get(one)).toEqual({
        ...one,
        isEnterpriseInstall: false,
        sealed: 'sealed-2',
        installedBy: 'U2',
        createdAt: 10,
        updatedAt: 20,
      });
      expect((await store.installations.get(org))?.isEnterpriseInstall).toBe(true);
      expect(await store.installations.count('slack')).toBe(2);
      expect(await store.installations.remove(one)).toBe(true);
      expect(await store.installations.remove(one)).toBe(false);
      expect(await store.installations.get(one)).toBeUndefined();
      expect(await store.installations.get(org)).toBeDefined();
    });

    it('links a workspace to its organisation, and moves it when it moves', async () => {
      expect(await store.installations.enterpriseOf('slack', 'T9')).toBeUndefined();
      await store.installations.linkTeam('slack', 'T9', 'E1', 1);
      await store.installations.linkTeam('slack', 'T9', 'E2', 2);
      expect(await store.installations.enterpriseOf('slack', 'T9')).toBe('E2');
    });

    it("lists one workspace's recent runs, newest first, and only that workspace's", async () => {
      const at = (runId: string, threadKey: string, createdAt: number) =>
        sampleRun({ runId, requestId: `req-${runId}`, threadKey, createdAt, updatedAt: createdAt });
      await store.runs.insert(at('r1', 'slack:T1:C1:1.1', 1));
      await store.runs.insert(at('r2', 'slack:T1:C2:2.2', 3));
      await store.runs.insert(at('r3', 'slack:T10:C1:1.1', 2));
      await store.runs.insert(at('r4', 'slack:T1%:C1:1.1', 4));
      const recent = await store.runs.listRecent('slack:T1:', 10);
      expect(recent.map((r) => r.runId)).toEqual(['r2', 'r1']);
      expect((await store.runs.listRecent('slack:T1:', 1)).map((r) => r.runId)).toEqual(['r2']);
    });
  });
}
