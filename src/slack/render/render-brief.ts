/**
 * Short answers about a run: `status` (its status message was just brought up to date, so
 * the answer points there instead of repeating it) and the choice between several live runs.
 */
import type { MessageModel, RunView } from '../../core/message/message-model.js';
import { STATUS_ACTION_ID } from '../api/action-ids.js';
import type { KnownBlock } from './blocks.js';
import { CANCEL_ACTION_ID, context, section, valueButton } from './blocks.js';
import { code, escapeMrkdwn, link, oneLine, truncatePlain } from './mrkdwn.js';
import { statusMessageSection } from './render-run-parts.js';
import { labelledUsage } from '../../core/message/usage-text.js';
import type { Rendered } from './render-run.js';

type Of<T extends MessageModel['type']> = Extract<MessageModel, { type: T }>;

function title(run: RunView): string {
  return escapeMrkdwn(truncatePlain(oneLine(run.title) || run.runId, 150));
}

function stateWords(run: RunView): string {
  const time = run.runTime === undefined ? '' : ` after ${escapeMrkdwn(run.runTime)}`;
  return `*${escapeMrkdwn(run.state.label)}*${time}`;
}

export function renderRunBrief(model: Of<'run_brief'>): Rendered {
  const { run } = model;
  // The state first, the title after a colon: a title made from the prompt reads well too.
  const head = `${run.state.emoji} ${stateWords(run)}: *${title(run)}*.`;
  const blocks: KnownBlock[] = [];
  if (model.hasCard) {
    const card =
      model.cardUrl === undefined
        ? 'Its status message'
        : link(model.cardUrl, 'Its status message');
    blocks.push(section(`${head} ${card} is up to date.`));
  } else {
    const session =
      run.sessionLink === undefined ? '' : ` ${link(run.sessionLink, 'Open session')}`;
    blocks.push(section(`${head}${session}`));
    const said = statusMessageSection(run);
    if (said !== undefined) blocks.push(said);
  }
  const usage = labelledUsage(run, run.state.live);
  const soFar = usage === undefined ? [] : [escapeMrkdwn(usage)];
  blocks.push(context([`run ${code(run.runId)}`, ...soFar]));
  return { text: `${title(run)}: ${escapeMrkdwn(run.state.label)}`, blocks };
}

export function renderRunChoice(model: Of<'run_choice'>): Rendered {
  const verb = model.action === 'cancel' ? 'cancel' : 'look at';
  const blocks: KnownBlock[] = [
    section(`You have ${model.runs.length} live runs in this channel. Which one should I ${verb}?`),
  ];
  for (const run of model.runs) {
    const button =
      model.action === 'cancel'
        ? valueButton('Cancel', run.runId, CANCEL_ACTION_ID, { style: 'danger' })
        : valueButton('Status', run.runId, STATUS_ACTION_ID);
    button.accessibility_label = truncatePlain(
      `${model.action === 'cancel' ? 'Cancel' : 'Status of'} ${oneLine(run.title)}`,
      75,
    );
    blocks.push({
      ...section(`${run.state.emoji} *${title(run)}* · ${escapeMrkdwn(run.state.label)}`),
      accessory: button,
    } as KnownBlock);
  }
  return { text: `Which run should I ${verb}?`, blocks };
}
