/**
 * What a run needs of its thread beyond the trigger, read through the platform's notifier
 * when a run starts (never by the ingress, so an event is acknowledged without waiting for
 * the platform): a Slack thread's earlier messages, a GitHub pull request's branches. A
 * failure or a slow answer is logged and the run starts without that part.
 */
import type { TriggerContext } from '../../core/trigger.js';
import { buildPrompt, type ThreadMessage } from './build-prompt.js';
import type { TriggerJob } from './trigger-job.js';
import type { RunsDeps } from '../runs-deps.js';

/** Trigger kinds that can sit inside an existing Slack thread. */
const IN_THREAD_KINDS = new Set(['mention', 'thread_reply', 'start_form']);

/** How long a run start waits for a pull request's branches before going without them. */
export const PULL_REQUEST_LOOKUP_MS = 3_000;

/**
 * Slack thread history for a run started inside a thread, when the ingress did not include
 * it (the notifier knows where a thread starts and answers nothing for a message that is its
 * own thread's root).
 */
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

function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The trigger's context with a pull request's branches filled in when the webhook lacked them. */
export async function withPullRequestRefs(
  deps: Pick<RunsDeps, 'notifiers'>,
  job: TriggerJob,
): Promise<TriggerContext> {
  const { context } = job.trigger;
  const issue = context.issue;
  if (job.trigger.platform !== 'github' || !issue?.isPullRequest) return context;
  if (issue.headRef !== undefined) return context;
  const github = deps.notifiers.github;
  if (!github?.fetchPullRequestRefs) return context;
  try {
    const lookup = github.fetchPullRequestRefs(job.trigger.threadKey);
    const refs = await within(lookup, PULL_REQUEST_LOOKUP_MS);
    if (refs === undefined) {
      job.log.debug({}, 'pull request branches unknown; starting without them');
      return context;
    }
    return { ...context, issue: { ...issue, headRef: refs.headRef, baseRef: refs.baseRef } };
  } catch (err) {
    job.log.warn({ err }, 'could not look up the pull request; starting without its branches');
    return context;
  }
}

/** A run's prompt: the words asked, with the trigger's context and what was fetched for it. */
export async function promptFor(
  deps: Pick<RunsDeps, 'notifiers' | 'options'>,
  job: TriggerJob,
  words: string,
): Promise<string> {
  const [context, threadMessages] = await Promise.all([
    withPullRequestRefs(deps, job),
    fetchSlackThreadContext(deps, job),
  ]);
  return buildPrompt({
    prompt: words,
    context,
    ...(threadMessages ? { threadMessages } : {}),
    maxChars: deps.options.maxPromptChars,
  });
}
