/**
 * Slack thread history for a run started inside a thread: fetched through the notifier when
 * the ingress did not include it (the notifier knows where a thread starts and answers nothing
 * for a message that is its own thread's root). A failure is logged and the run starts
 * without history.
 */
import type { ThreadMessage } from './build-prompt.js';
import type { TriggerJob } from './trigger-job.js';
import type { RunsDeps } from '../runs-deps.js';

/** Trigger kinds that can sit inside an existing Slack thread. */
const IN_THREAD_KINDS = new Set(['mention', 'thread_reply', 'start_form']);

export async function fetchSlackThreadContext(
  deps: Pick<RunsDeps, 'notifiers'>,
  job: TriggerJob,
): Promise<ThreadMessage[] | undefined> {
  const { trigger } = job;
  if (trigger.platform !== 'slack' || !IN_THREAD_KINDS.has(trigger.kind)) return undefined;
  if (trigger.context.threadMessages !== undefined) return undefined;
  const fetch = deps.notifiers.slack?.fetchThreadMessages;
  if (!fetch) return undefined;
  try {
    // The start form was opened on a message of the thread: the whole thread goes along.
    const before = trigger.kind === 'start_form' ? undefined : trigger.triggerMessage;
    return await fetch.call(deps.notifiers.slack, trigger.threadKey, before);
  } catch (err) {
    job.log.warn({ err }, 'could not fetch the Slack thread history; starting without it');
    return undefined;
  }
}
