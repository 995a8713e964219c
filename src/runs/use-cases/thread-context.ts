/**
 * Slack thread history for a run started inside a thread (DESIGN.md, "Context the agent
 * gets"): fetched through the notifier when the ingress did not include it. A failure is
 * logged and the run starts without history.
 */
import { decodeThreadKey } from '../../core/thread-key.js';
import type { ThreadMessage } from './build-prompt.js';
import type { TriggerJob } from './trigger-job.js';
import type { RunsDeps } from '../runs-deps.js';

/** Trigger kinds that can sit inside an existing Slack thread. */
const IN_THREAD_KINDS = new Set(['mention', 'thread_reply']);

/**
 * Whether the trigger message is the thread's root. A Slack message ref id is
 * `channel:ts` (trigger.ts); the root's ts is the thread's ts.
 */
function isThreadRoot(messageId: string | undefined, channel: string, threadTs: string): boolean {
  return messageId === `${channel}:${threadTs}`;
}

export async function fetchSlackThreadContext(
  deps: Pick<RunsDeps, 'notifiers'>,
  job: TriggerJob,
): Promise<ThreadMessage[] | undefined> {
  const { trigger } = job;
  if (trigger.platform !== 'slack' || !IN_THREAD_KINDS.has(trigger.kind)) return undefined;
  if (trigger.context.threadMessages !== undefined) return undefined;
  const addr = decodeThreadKey(trigger.threadKey);
  if (addr?.platform !== 'slack' || addr.threadTs === '') return undefined;
  if (isThreadRoot(trigger.triggerMessage?.id, addr.channel, addr.threadTs)) return undefined;
  const fetch = deps.notifiers.slack?.fetchThreadMessages;
  if (!fetch) return undefined;
  try {
    return await fetch.call(deps.notifiers.slack, trigger.threadKey, trigger.triggerMessage);
  } catch (err) {
    job.log.warn({ err }, 'could not fetch the Slack thread history; starting without it');
    return undefined;
  }
}
