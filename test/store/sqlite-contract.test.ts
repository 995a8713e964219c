/** The store's behaviour on a real SQLite file (postgres.test.ts runs the same contract). */
import { describe } from 'vitest';
import { describeInboxContract } from './contract-inbox.js';
import { describeBudgetContract } from './contract-budget.js';
import { describeConsoleContract } from './contract-console.js';
import { describeInstallationsContract } from './contract-installations.js';
import { describeOutboxContract } from './contract-outbox.js';
import { describeOperatorContract } from './contract-operator.js';
import { describeReplicaContract } from './contract-replicas.js';
import { describeRunsContract } from './contract-runs.js';
import { describeStartMessagesContract } from './contract-start-messages.js';
import { describeBlockedDescendantsContract } from './contract-blocked-descendants.js';
import { describeReactionIdsContract } from './contract-reaction-ids.js';
import { describeLinearSessionsContract } from './contract-linear-sessions.js';
import { describeThreadsAndSettingsContract } from './contract-threads-settings.js';
import { describeTransactionContract } from './contract-transactions.js';
import { createSqliteHarness } from './harness.js';

describe('SQLite store', () => {
  describeInboxContract(createSqliteHarness);
  describeOutboxContract(createSqliteHarness);
  describeRunsContract(createSqliteHarness);
  describeReplicaContract(createSqliteHarness);
  describeThreadsAndSettingsContract(createSqliteHarness);
  describeTransactionContract(createSqliteHarness);
  describeOperatorContract(createSqliteHarness);
  describeInstallationsContract(createSqliteHarness);
  describeConsoleContract(createSqliteHarness);
  describeStartMessagesContract(createSqliteHarness);
  describeBlockedDescendantsContract(createSqliteHarness);
  describeReactionIdsContract(createSqliteHarness);
  describeLinearSessionsContract(createSqliteHarness);
  describeBudgetContract(createSqliteHarness);
});
