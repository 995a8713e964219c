/** The store's behaviour on a real SQLite file (postgres.test.ts runs the same contract). */
import { describe } from 'vitest';
import { describeInboxContract } from './contract-inbox.js';
import { describeOutboxContract } from './contract-outbox.js';
import { describeRunsContract } from './contract-runs.js';
import { describeStartMessagesContract } from './contract-start-messages.js';
import { describeThreadsAndSettingsContract } from './contract-threads-settings.js';
import { describeTransactionContract } from './contract-transactions.js';
import { createSqliteHarness } from './harness.js';

describe('SQLite store', () => {
  describeInboxContract(createSqliteHarness);
  describeOutboxContract(createSqliteHarness);
  describeRunsContract(createSqliteHarness);
  describeThreadsAndSettingsContract(createSqliteHarness);
  describeTransactionContract(createSqliteHarness);
  describeStartMessagesContract(createSqliteHarness);
});
