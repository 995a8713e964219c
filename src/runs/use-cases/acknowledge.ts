/**
 * Acknowledge at pickup (docs/usage.md, "What people see"): before the service is asked to create
 * a run, 👀 goes on the triggering message and the run's status message is queued as
 * "Starting…" with the settings that will apply, in one transaction. The person's first sign
 * thus waits on the relay's own queue, never on the service. The start-message row records
 * that this was queued, so a retried or re-claimed attempt queues nothing again; when the run
 * exists its status edits that same message, and a failed create edits it to the error.
 */
import type { AppliedSetting, MessageModel } from '../../core/message/message-model.js';
import { runStatusMessage } from '../../core/message/render-model.js';
import { startingView } from '../../core/message/run-view.js';
import type { OutboxPayload, StoreTx } from '../../core/ports/index.js';
import type { RunsDeps } from '../runs-deps.js';
import { privateDestination, type TriggerJob } from './trigger-job.js';

export interface StartingRun {
  title: string | undefined;
  prompt: string;
  applied: AppliedSetting[];
  factory?: { alias?: string; name?: string };
}

export async function acknowledgeStart(
  deps: RunsDeps,
  job: TriggerJob,
  run: StartingRun,
): Promise<void> {
  const { trigger } = job;
  const now = deps.clock.now();
  const destination = { threadKey: job.threadKey };
  // A slash command's public status message: if the bot may not post there, the notifier
  // tells the caller privately through the command's response_url.
  const statusTo =
    trigger.anchorsNewThread && trigger.responseUrl
      ? { ...destination, responseUrl: trigger.responseUrl }
      : destination;
  const message = runStatusMessage(
    startingView({
      title: run.title ?? 'New run',
      prompt: run.prompt,
      requester: job.actor,
      applied: run.applied,
      ...(run.factory ? { factory: run.factory } : {}),
    }),
  );
  const queued = await deps.store.transaction(async (tx) => {
    if (!(await tx.startMessages.open(job.requestId, job.threadKey, now))) return false;
    if (trigger.triggerMessage) {
      await tx.outbox.enqueue(
        { kind: 'react', destination, target: trigger.triggerMessage, reaction: 'seen' },
        now,
      );
    }
    await tx.outbox.enqueue(
      { kind: 'status', destination: statusTo, requestId: job.requestId, message, observedAt: now },
      now,
    );
    return true;
  });
  // Recorded now, or by an earlier attempt of this request.
  job.acknowledged = true;
  if (queued) {
    job.log.debug({}, 'acknowledged: 👀 and "Starting…" queued');
    deps.notifyOutbox(job.trigger.platform);
  }
}

/** Thrown after the first sign by a trigger that steps back to the inbox (workers/deferral.ts). */
export class SteppedBack extends Error {
  constructor() {
    super('deferred until the service lane has room');
    this.name = 'SteppedBack';
  }
}

/**
 * After the first sign, before the service is asked: when many calls already wait for the
 * service lane, the trigger steps back to the inbox (the handler defers it) rather than wait
 * in hand, so the hand keeps room for newer triggers' first signs.
 */
export function awaitServiceTurn(deps: RunsDeps, job: TriggerJob): void {
  const { deferral } = deps;
  if (!deferral) return;
  const holds = job.whenSettled.length > 0;
  if (deferral.shouldDefer({ item: job.item, mayHaveRunBefore: job.mayHaveRunBefore, holds })) {
    throw new SteppedBack();
  }
  job.admitted = true;
}

/**
 * A message about this request (the create failed, or waits for the service): it replaces the
 * "Starting…" message when one was queued (that message must not keep saying "Starting…"),
 * else it goes to the asker alone.
 */
export async function requestAnswer(
  tx: StoreTx,
  job: TriggerJob,
  message: MessageModel,
): Promise<OutboxPayload> {
  const started = await tx.startMessages.get(job.requestId);
  if (!started) return { kind: 'post', destination: privateDestination(job), message };
  return {
    kind: 'status',
    destination: { threadKey: started.threadKey },
    requestId: job.requestId,
    message,
  };
}
