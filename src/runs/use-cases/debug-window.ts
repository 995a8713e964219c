/**
 * The service's debug window (docs/agent-api.md, "Setup failures and their debug window"): a
 * run that failed during environment setup keeps its session open for a while, and a
 * follow-up sent then goes to a debugging agent in that session. The run stays FAILED with
 * its failure unchanged, so there is no new episode to track or announce: the person is told
 * where their message went instead.
 */
import type { RunItem } from '../../core/run.js';
import type { MessageModel } from '../../core/message/message-model.js';
import { epochOf } from '../run-changes.js';

/** Whether a follow-up to the run now goes to its debugging session. */
export function inDebugWindow(item: RunItem | undefined, now: number): boolean {
  if (item?.state !== 'FAILED') return false;
  if (item.debug_agent_available === true) return true;
  if (item.status_message?.debug_agent_active === true) return true;
  const until = epochOf(item.status_message?.session_debug_until ?? undefined);
  return until !== undefined && until > now;
}

function clockTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 16)} UTC`;
}

/** What the person reads after their follow-up went to the debugging session. */
export function debugSessionNotice(item: RunItem): MessageModel {
  const until = epochOf(item.status_message?.session_debug_until ?? undefined);
  const open =
    until === undefined ? '' : ` (open until about ${clockTime(until)}, longer while it is used)`;
  const text =
    `Your message went to the debugging session of this run: its environment setup failed, and while its session stays open${open} an agent there looks into the failure with you. ` +
    'The run itself stays failed; once the setup is fixed, start a new run to do the task.';
  const link = item.session_link ?? undefined;
  return {
    type: 'notice',
    tone: 'info',
    text,
    ...(link ? { link: { label: 'Open the debugging session', url: link } } : {}),
  };
}
