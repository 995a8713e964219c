/**
 * Handle one inbox item: parse, route to its use case, and commit what it decided (writes
 * and notifications) in ONE transaction together with completing the item. Failures become
 * plain-words notices, a later retry (service unavailable: told once), or a final apology;
 * the worker never dies of one.
 */
import type { InboxItem } from '../../core/ports/index.js';
import { isServiceError } from '../../core/ports/index.js';
import { parseCommand } from '../../core/command/parse-command.js';
import { helpMessage, notice } from '../../core/message/render-model.js';
import { requestAnswer } from './acknowledge.js';
import { cancelRun } from './cancel-run.js';
import { checkAccess } from './check-access.js';
import { routeCommand } from './route-command.js';
import type { RunsDeps } from '../runs-deps.js';
import { decideFailure } from './service-failure.js';
import {
  noEffects,
  prepareJob,
  replyPrivately,
  replyWith,
  type Effects,
  type TriggerJob,
} from './trigger-job.js';

/** How long the inbox holds back after a 429 that named no Retry-After. */
export const SLOW_DOWN_MS = 2_000;

/** How a person addresses the bot here: the slash command on Slack, the @-handle on GitHub. */
function invocationOf(deps: RunsDeps, job: TriggerJob): string {
  return job.trigger.platform === 'slack' ? deps.options.commandWord : `@${deps.options.botHandle}`;
}

async function decide(deps: RunsDeps, job: TriggerJob): Promise<Effects> {
  const { trigger } = job;
  if (trigger.kind === 'cancel_button') return cancelRun(deps, job, trigger.runId);
  const parsed = parseCommand({
    text: trigger.text,
    addressed: trigger.addressed,
    platform: trigger.platform,
    botHandle: deps.options.botHandle,
    commandWord: deps.options.commandWord,
    maxPromptChars: deps.options.maxPromptChars,
  });
  if (parsed.kind === 'ignore') {
    job.log.debug({ reason: parsed.reason }, 'trigger ignored');
    return noEffects;
  }
  const refused = await checkAccess(deps, job);
  if (refused) return refused;
  switch (parsed.kind) {
    case 'reply':
      if (parsed.reply.type === 'help') return replyWith(job, helpMessage(invocationOf(deps, job)));
      // A mistake concerns the one who made it: privately on Slack (GitHub has no private
      // answer, so there the person is mentioned).
      return replyPrivately(
        job,
        notice(
          'error',
          parsed.reply.message,
          parsed.reply.usage,
          job.trigger.platform === 'github' ? job.actor : undefined,
        ),
      );
    case 'command':
      return routeCommand(deps, job, parsed.command);
  }
}

async function onFailure(deps: RunsDeps, job: TriggerJob, err: unknown): Promise<void> {
  const { item } = job;
  const now = deps.clock.now();
  const decision = decideFailure({
    err,
    item,
    now,
    retryDelaysMs: deps.options.inboxRetryDelaysMs,
    mention: job.actor,
  });
  if (isServiceError(err) && err.code === 'rate_limit') {
    deps.slowDown(err.retryAfterMs ?? SLOW_DOWN_MS, 'rate_limit');
  }
  const level = decision.action === 'retry' ? 'warn' : 'error';
  job.log[level]({ err, action: decision.action }, 'trigger failed');
  await deps.store.transaction(async (tx) => {
    if (decision.message) {
      // Edits the "Starting…" message when there is one, else tells the asker alone.
      await tx.outbox.enqueue(await requestAnswer(tx, job, decision.message), now);
    }
    if (decision.action === 'complete') await tx.inbox.complete(item.id, now);
    else if (decision.action === 'fail') await tx.inbox.fail(item.id, decision.error, now);
    else {
      await tx.inbox.retryLater(
        item.id,
        decision.at,
        decision.error,
        item.waitNoticeSent || Boolean(decision.message),
      );
    }
  });
  if (decision.message) deps.notifyOutbox(job.trigger.platform);
}

export function createTriggerHandler(deps: RunsDeps): (item: InboxItem) => Promise<void> {
  return async (item) => {
    const job = await prepareJob(deps, item);
    try {
      const effects = await decide(deps, job);
      const now = deps.clock.now();
      await deps.store.transaction(async (tx) => {
        await effects(tx, now);
        await tx.inbox.complete(item.id, now);
      });
    } catch (err) {
      try {
        await onFailure(deps, job, err);
      } catch (storeErr) {
        // The store itself failed: the item's lease runs out and it is claimed again.
        job.log.error({ err: storeErr, cause: err }, 'could not record the failure of a trigger');
      }
      return;
    }
    for (const after of job.afterCommit) after();
    deps.notifyOutbox(job.trigger.platform);
  };
}
