/**
 * The writes for a run the service just accepted (or that reconciliation found): the run
 * record (tracked), the thread's current run, and the status message (an edit of the
 * "Starting…" message queued at pickup; 👀 too unless that already went out). The handler commits them in one transaction with completing the inbox item.
 */
import type { RunItem } from '../../core/run.js';
import type { AppliedSetting } from '../../core/message/message-model.js';
import type { OutboxPayload, RunRecord } from '../../core/ports/index.js';
import { runStatusMessage } from '../../core/message/render-model.js';
import { withOurReactions } from '../../core/message/our-reactions.js';
import { observeRun } from '../run-changes.js';
import { followRunWork } from '../session-work.js';
import { freshItem, viewOf } from '../../core/message/run-view.js';
import type { RunsDeps } from '../runs-deps.js';
import type { Effects, TriggerJob } from './trigger-job.js';

export interface AcceptedRun {
  runId: string;
  state: string;
  title: string;
  /** The person's words (for the view until the detail is fetched). */
  prompt: string;
  applied: AppliedSetting[];
  factory?: RunRecord['factory'];
  /**
   * The service's item when reconciliation found the run (an earlier attempt created it).
   * It may have ended already: it is observed at once, as the tracker would, so its outcome
   * reply and reaction go out exactly once and the tracker starts from its `updated_at`.
   */
  found?: RunItem;
}

export function recordNewRun(deps: RunsDeps, job: TriggerJob, run: AcceptedRun): Effects {
  const { trigger } = job;
  return async (tx, now) => {
    const interval = deps.options.pollIntervalMs;
    let record: RunRecord = {
      runId: run.runId,
      threadKey: job.threadKey,
      platform: trigger.platform,
      requestId: job.requestId,
      requester: {
        id: trigger.actor.id,
        ...(trigger.actor.name ? { name: trigger.actor.name } : {}),
      },
      title: run.title,
      state: run.state,
      applied: run.applied,
      ...(run.factory ? { factory: run.factory } : {}),
      // 👀 goes on it at pickup (acknowledge.ts) or below: recorded as ours.
      ...(trigger.triggerMessage
        ? { triggerMessage: withOurReactions(trigger.triggerMessage, ['seen']) }
        : {}),
      nextCheckAt: now + interval,
      checkIntervalMs: interval,
      tracked: true,
      createdAt: now,
      updatedAt: now,
    };
    const observed: OutboxPayload[] = [];
    if (run.found) {
      const observation = observeRun({
        record,
        item: run.found,
        now,
        intervals: {
          baseMs: interval,
          maxMs: deps.options.maxCheckIntervalMs,
          blockedMs: deps.options.blockedCheckIntervalMs,
        },
      });
      record = { ...record, ...observation.patch };
      // The status message below already shows the found item.
      observed.push(...observation.notifications.filter((n) => n.kind !== 'status'));
    }
    await tx.runs.insert(record);
    await followRunWork(
      tx,
      deps.capabilities,
      { threadKey: record.threadKey, platform: record.platform },
      record.state,
      now,
    );
    // A slash command's thread does not exist yet: the outbox creates it with the status
    // message. Otherwise the run becomes its thread's current run.
    if (!trigger.anchorsNewThread) {
      await tx.threads.upsert(
        {
          threadKey: job.threadKey,
          platform: trigger.platform,
          currentRunId: run.runId,
          startedBy: trigger.actor.id,
        },
        now,
      );
    }
    const destination = { threadKey: job.threadKey };
    const payloads: OutboxPayload[] = [];
    // 👀 went out at pickup when the request was acknowledged (acknowledge.ts).
    const acknowledged =
      job.acknowledged === true || (await tx.startMessages.get(job.requestId)) !== undefined;
    if (trigger.triggerMessage && !acknowledged) {
      payloads.push({
        kind: 'react',
        destination,
        target: trigger.triggerMessage,
        reaction: 'seen',
      });
    }
    const item = run.found
      ? { ...run.found, title: run.found.title || run.title }
      : freshItem({
          runId: run.runId,
          title: run.title,
          prompt: run.prompt,
          state: run.state,
          at: now,
        });
    payloads.push({
      kind: 'status',
      destination,
      runId: run.runId,
      // Its request too: a "Starting…" queued just before it is then seen to be moot
      // (moot-status.ts) without reading the run.
      requestId: job.requestId,
      message: runStatusMessage(viewOf(record, item, now)),
      observedAt: now,
    });
    payloads.push(...observed);
    for (const payload of payloads) await tx.outbox.enqueue(payload, now);
    deps.metrics.inc('runs_created', { platform: trigger.platform });
  };
}
