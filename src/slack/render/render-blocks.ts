/**
 * The Block Kit renderer: the core's neutral message model -> `{ text, blocks }` for
 * chat.postMessage / chat.update / chat.postEphemeral. Pure; snapshot-tested.
 *
 * `text` is the fallback Slack shows in notifications and reads to screen readers. Every
 * piece of user or service text is escaped (`&`, `<`, `>`), so mentions such as `<!channel>`
 * only come from the renderer itself (the requester's `<@U…>`), and Slack's size limits are
 * kept by truncating with '…'.
 */
import type { MessageModel } from '../../core/message/message-model.js';
import type { KnownBlock } from './blocks.js';
import { LIMITS, capBlocks } from './blocks.js';
import { truncateMrkdwn } from './mrkdwn.js';
import { renderRunBrief, renderRunChoice } from './render-brief.js';
import { renderRunList } from './render-list.js';
import { renderConfig, renderFactoryChoice, renderHelp, renderNotice } from './render-notices.js';
import type { Rendered } from './render-run.js';
import { renderReview } from './render-review.js';
import { renderFollowupSent, renderRunOutcome, renderRunStatus } from './render-run.js';

export type { KnownBlock };
export { CANCEL_ACTION_ID, STOP_ACTION_ID } from '../api/action-ids.js';

export interface SlackMessage {
  text: string;
  blocks: KnownBlock[];
}

function renderAny(model: MessageModel): Rendered {
  switch (model.type) {
    case 'run_status':
      return renderRunStatus(model.run);
    case 'run_outcome':
      return renderRunOutcome(model.run);
    case 'followup_sent':
      return renderFollowupSent(model.run, model.message, model.routed);
    case 'run_list':
      return renderRunList(model);
    case 'config':
      return renderConfig(model);
    case 'help':
      return renderHelp(model);
    case 'notice':
      return renderNotice(model);
    case 'factory_choice':
      return renderFactoryChoice(model);
    case 'run_brief':
      return renderRunBrief(model);
    case 'run_choice':
      return renderRunChoice(model);
    case 'review':
      return renderReview(model);
  }
}

export function renderSlackMessage(model: MessageModel): SlackMessage {
  const { text, blocks } = renderAny(model);
  return { text: truncateMrkdwn(text, LIMITS.fallbackText), blocks: capBlocks(blocks) };
}
