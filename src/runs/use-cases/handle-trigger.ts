/**
 * Handle one inbox item: route it to its use case (`route-command.ts`), and commit what it
 * decided (writes and notifications) in ONE transaction together with completing the item.
 * Failures become plain-words notices, a later retry (service unavailable: told once), or a
 * final apology; the worker never dies of one.
 */
import type { InboxItem } from '../../core/ports/index.js';
import { isServiceError } from '../../core/ports/index.js';
import { requestAnswer, SteppedBack } from './acknowledge.js';
import { AccessUnknown } from './check-access.js';
import { routeTrigger } from './route-command.js';
import type { RunsDeps } from '../runs-deps.js';
import { decideFailure } from './service-failure.js';
import { prepareJob, privateDestination, type TriggerJob } from './trigger-job.js';

/** How long the inbox holds back after a 429 that named no Retry-After. */
export const SLOW_DOWN_MS = 2_000;

/** Records the failure; true when the trigger will be tried again. */
async function onFailure(deps: RunsDeps, job: TriggerJob, err: unknown): Promise<boolean> {
  const { item } = job;
  const now = deps.clock.now();
  const decision = decideFailure({
    err,
    item,
    now,
    retryDelaysMs: deps.options.inboxRetryDelaysMs,
    mention: job.actor,
    // Only a platform with private answers can tell one person; elsewhere it is public.
    canTellPrivately: job.capabilities.ephemeral,
  });
  if (isServiceError(err) && err.code === 'rate_limit') {
    deps.slowDown(err.retryAfterMs ?? SLOW_DOWN_MS, 'rate_limit');
  }
  // The service's answers are expected conditions: the person is told, and the log says what
  // happened in one line, without a stack trace; an answer a person can act on (a request the
  // service did not accept) is not an error of the relay at all. Anything else is a bug.
  const expected = isServiceError(err);
  const operatorMustAct = decision.action === 'complete' && decision.operatorMustAct === true;
  const level =
    decision.action === 'retry'
      ? 'warn'
      : expected && decision.action === 'complete' && !operatorMustAct
        ? 'info'
        : 'error';
  job.log[level](
    expected
      ? {
          error: decision.error,
          action: decision.action,
          // The service's error code (and provider), for operators; never the personal link.
          ...(err.serviceCode ? { serviceCode: err.serviceCode } : {}),
          ...(err.provider ? { provider: err.provider } : {}),
        }
      : // The platform could not say who asks: a condition, not a bug (no stack trace).
        err instanceof AccessUnknown
        ? { error: decision.error, action: decision.action }
        : { err, action: decision.action },
    'trigger failed',
  );
  await deps.store.transaction(async (tx) => {
    if (decision.message) {
      // Edits the "Starting…" message when there is one, else tells the asker alone.
      await tx.outbox.enqueue(await requestAnswer(tx, job, decision.message), now);
    }
    if (decision.action === 'complete' && decision.privateMessage) {
      const destination = privateDestination(job);
      // Never public: sent only where the destination reaches the requester alone.
      if (destination.privateTo !== undefined) {
        await tx.outbox.enqueue(
          { kind: 'post', destination, message: decision.privateMessage },
          now,
        );
      }
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
  return decision.action === 'retry';
}

/** Back to the inbox, its first sign out, until the service lane has room (deferral.ts). */
async function deferItem(deps: RunsDeps, job: TriggerJob): Promise<void> {
  try {
    await deps.store.inbox.defer(job.item.id, deps.clock.now());
    deps.metrics.inc('triggers_deferred');
    job.log.debug({}, 'deferred until the service lane has room');
  } catch (err) {
    // Its lease runs out and it is claimed again; its first sign is not queued twice.
    job.log.error({ err }, 'could not defer a trigger');
  }
}

async function settle(job: TriggerJob): Promise<void> {
  for (const settled of job.whenSettled) await settled();
}

export function createTriggerHandler(deps: RunsDeps): (item: InboxItem) => Promise<void> {
  return async (item) => {
    const job = await prepareJob(deps, item);
    try {
      await handleJob(deps, job);
    } finally {
      // Taken back from the deferred line, or let through to the service: it is done with it.
      if (item.resumed || job.admitted) deps.leftService?.();
    }
  };
}

async function handleJob(deps: RunsDeps, job: TriggerJob): Promise<void> {
  const { item } = job;
  try {
    const effects = await routeTrigger(deps, job);
    const now = deps.clock.now();
    await deps.store.transaction(async (tx) => {
      await effects(tx, now);
      await tx.inbox.complete(item.id, now);
    });
  } catch (err) {
    if (err instanceof SteppedBack) {
      await deferItem(deps, job);
      return;
    }
    try {
      if (!(await onFailure(deps, job, err))) await settle(job);
    } catch (storeErr) {
      // The store itself failed: the item's lease runs out and it is claimed again.
      job.log.error({ err: storeErr, cause: err }, 'could not record the failure of a trigger');
    }
    return;
  }
  await settle(job);
  for (const after of job.afterCommit) after();
  deps.notifyOutbox(job.trigger.platform);
}
