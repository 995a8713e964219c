/**
 * Slack and Linear installations (any number of workspaces; a Linear token pair replaced by a
 * compare-and-set) and a workspace's recent runs: the same behaviour on SQLite and PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import type { HarnessFactory } from './harness.js';
import { freshStoreEachTest, sampleRun } from './harness.js';

export function describeInstallationsContract(createHarness: HarnessFactory): void {
  describe('installations', () => {
    const db = freshStoreEachTest(createHarness);

    const one = { platform: 'slack' as const, enterpriseId: '', teamId: 'T1' };
    const org = { platform: 'slack' as const, enterpriseId: 'E1', teamId: '' };

    it('saves, replaces on reinstall, reads and removes by workspace or organisation', async () => {
      await db.store.installations.save(
        { ...one, isEnterpriseInstall: false, sealed: 'sealed-1', installedBy: 'U1' },
        10,
      );
      await db.store.installations.save(
        { ...org, isEnterpriseInstall: true, sealed: 'sealed-org' },
        11,
      );
      await db.store.installations.save(
        { ...one, isEnterpriseInstall: false, sealed: 'sealed-2', installedBy: 'U2' },
        20,
      );
      expect(await db.store.installations.get(one)).toEqual({
        ...one,
        isEnterpriseInstall: false,
        sealed: 'sealed-2',
        installedBy: 'U2',
        createdAt: 10,
        updatedAt: 20,
      });
      expect((await db.store.installations.get(org))?.isEnterpriseInstall).toBe(true);
      expect(await db.store.installations.count('slack')).toBe(2);
      expect(await db.store.installations.remove(one)).toBe(true);
      expect(await db.store.installations.remove(one)).toBe(false);
      expect(await db.store.installations.get(one)).toBeUndefined();
      expect(await db.store.installations.get(org)).toBeDefined();
    });

    it('replaces a sealed installation only while it is still the one expected (a refreshed token pair)', async () => {
      const linear = { platform: 'linear' as const, enterpriseId: '', teamId: 'org-acme' };
      await db.store.installations.save(
        { ...linear, isEnterpriseInstall: false, sealed: 'pair-1', installedBy: 'app-user' },
        10,
      );
      expect(await db.store.installations.replaceSealed(linear, 'pair-1', 'pair-2', 20)).toBe(true);
      // A second replica that read pair-1 too loses: the row already moved on.
      expect(await db.store.installations.replaceSealed(linear, 'pair-1', 'pair-3', 30)).toBe(
        false,
      );
      expect(await db.store.installations.get(linear)).toMatchObject({
        sealed: 'pair-2',
        installedBy: 'app-user',
        createdAt: 10,
        updatedAt: 20,
      });
      expect(
        await db.store.installations.replaceSealed({ ...linear, teamId: 'org-none' }, 'x', 'y', 40),
      ).toBe(false);
    });

    it('links a workspace to its organisation, and moves it when it moves', async () => {
      expect(await db.store.installations.enterpriseOf('slack', 'T9')).toBeUndefined();
      await db.store.installations.linkTeam('slack', 'T9', 'E1', 1);
      await db.store.installations.linkTeam('slack', 'T9', 'E2', 2);
      expect(await db.store.installations.enterpriseOf('slack', 'T9')).toBe('E2');
    });

    it("lists one workspace's recent runs, newest first, and only that workspace's", async () => {
      const at = (runId: string, threadKey: string, createdAt: number) =>
        sampleRun({ runId, requestId: `req-${runId}`, threadKey, createdAt, updatedAt: createdAt });
      await db.store.runs.insert(at('r1', 'slack:T1:C1:1.1', 1));
      await db.store.runs.insert(at('r2', 'slack:T1:C2:2.2', 3));
      await db.store.runs.insert(at('r3', 'slack:T10:C1:1.1', 2));
      await db.store.runs.insert(at('r4', 'slack:T1%:C1:1.1', 4));
      const recent = await db.store.runs.listRecent('slack:T1:', 10);
      expect(recent.map((r) => r.runId)).toEqual(['r2', 'r1']);
      expect((await db.store.runs.listRecent('slack:T1:', 1)).map((r) => r.runId)).toEqual(['r2']);
    });
  });
}
