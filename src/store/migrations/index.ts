/**
 * The static list of migrations, in order. Add a new file (`002-….ts`) and a line here; never
 * edit a migration that has shipped.
 */
import type { Migration, MigrationProvider } from 'kysely/migration';
import type { DatabaseKind } from '../schema.js';
import { initialMigration } from './001-initial.js';
import { runsUpdatedAtMigration } from './002-runs-updated-at.js';
import { leasesMigration } from './003-leases.js';
import { startMessagesMigration } from './004-start-messages.js';
import { runStatesMigration } from './005-run-states.js';
import { slackInstallationsMigration } from './006-slack-installations.js';
import { runsEarlierRunTimeMigration } from './007-runs-earlier-run-time.js';
import { inboxOwnLaneMigration } from './008-inbox-own-lane.js';
import { refusalsMigration } from './009-refusals.js';
import { consoleSessionsMigration } from './010-console-sessions.js';
import { homeViewersMigration } from './011-home-viewers.js';
import { reactionIdsMigration } from './012-reaction-ids.js';
import { runsUsageMigration } from './013-runs-usage.js';
import { blockedDescendantsMigration } from './014-blocked-descendants.js';
import { runsRequesterBackfillMigration } from './015-runs-requester-backfill.js';
import { linearSessionsMigration } from './016-linear-sessions.js';
import { runReviewsMigration } from './017-run-reviews.js';
import { blockedDescendantAnswersMigration } from './018-blocked-descendant-answers.js';
import { openQueueIndexesMigration } from './019-open-queue-indexes.js';

export function migrationProvider(kind: DatabaseKind): MigrationProvider {
  return {
    getMigrations: (): Promise<Record<string, Migration>> =>
      Promise.resolve({
        '001-initial': initialMigration(kind),
        '002-runs-updated-at': runsUpdatedAtMigration(),
        '003-leases': leasesMigration(),
        '004-start-messages': startMessagesMigration(),
        '005-run-states': runStatesMigration(kind),
        '006-slack-installations': slackInstallationsMigration(),
        '007-runs-earlier-run-time': runsEarlierRunTimeMigration(),
        '008-inbox-own-lane': inboxOwnLaneMigration(),
        '009-refusals': refusalsMigration(),
        '010-console-sessions': consoleSessionsMigration(),
        '011-home-viewers': homeViewersMigration(),
        '012-reaction-ids': reactionIdsMigration(),
        '013-runs-usage': runsUsageMigration(),
        '014-blocked-descendants': blockedDescendantsMigration(),
        '015-runs-requester-backfill': runsRequesterBackfillMigration(),
        '016-linear-sessions': linearSessionsMigration(),
        '017-run-reviews': runReviewsMigration(),
        '018-blocked-descendant-answers': blockedDescendantAnswersMigration(),
        '019-open-queue-indexes': openQueueIndexesMigration(kind),
      }),
  };
}
