/**
 * Runs stored before the requester had a column of its own: the backfill migration reads
 * their id from the requester JSON, so a person's budget (and App Home's month) counts a run
 * that was live across the upgrade and reported its cost afterwards. Damaged rows stay as
 * they were and do not stop the migration.
 */
import { describe, expect, it } from 'vitest';
import { createSqliteHarness, harnessPer, sampleRun } from './harness.js';

describe('the requester backfill (SQLite)', () => {
  const temp = harnessPer(createSqliteHarness);

  it("fills the requester id of earlier runs, so the person's month counts them", async () => {
    const first = await temp.open();
    for (const [runId, id] of [
      ['before-1', 'U1'],
      ['before-2', 'U1'],
      ['before-3', 'U2'],
      ['damaged', 'U1'],
    ] as const)
      await first.runs.insert(
        sampleRun({ runId, requestId: `q-${runId}`, requester: { id }, createdAt: 10 }),
      );
    await first.close();
    // As a store before the column was filled left them (so without the migrations after the
    // backfill either); one row's JSON is damaged.
    await temp.exec(`
      update runs set requester_id = null;
      update runs set requester = '{"id": ' where run_id = 'damaged';
      delete from kysely_migration where name >= '015-runs-requester-backfill';
      drop table linear_sessions;
      alter table runs drop column review;
      alter table runs drop column cap_micro_usd;
      alter table blocked_descendants drop column decided_by;
      alter table blocked_descendants drop column review_status;
      alter table blocked_descendants drop column version;
    `);
    const before = await temp.open();
    // Reopened, the backfill ran: a cost reported after the upgrade counts for the person.
    await before.runs.update('before-1', { costUsd: 2 });
    await before.runs.update('before-2', { costUsd: 0.5 });
    await before.runs.update('before-3', { costUsd: 9 });
    expect(await before.runs.spendOfRequesterSince('slack:T1:', 'U1', 0)).toBe(2.5);
    expect(await before.runs.usageOfRequesterSince('slack:T1:', 'U2', 0)).toEqual({
      spentUsd: 9,
      costed: 1,
    });
    await before.close();
  });
});
