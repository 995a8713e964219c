/** `list`: recent runs, one section each, with the filters that applied. */
import { shortRunId } from '../../core/message/short-run-id.js';
import type { MessageModel, PersonView, RunView } from '../../core/message/message-model.js';
import type { KnownBlock } from './blocks.js';
import { LIMITS, context, header, section } from './blocks.js';
import { code, escapeMrkdwn, link, oneLine, truncatePlain } from './mrkdwn.js';
import { person } from './render-run-parts.js';
import { formatCost, monthLine } from '../../core/message/usage-text.js';
import type { Rendered } from './render-run.js';

type RunList = Extract<MessageModel, { type: 'run_list' }>;

/** Header, filters and the "more" note take three blocks; the rest is one per run. */
const MAX_RUNS = LIMITS.blocks - 3;

function filtersText(filters: RunList['filters']): string {
  const parts: string[] = [];
  if (filters.state !== undefined && filters.state.length > 0) {
    parts.push(`state=${filters.state.map(escapeMrkdwn).join(',')}`);
  }
  if (filters.name !== undefined) parts.push(`name=${escapeMrkdwn(filters.name)}`);
  if (filters.mine === true) parts.push('mine');
  return parts.length === 0 ? '' : `filters: ${parts.join(' ')}`;
}

const SCOPE_TEXT: Record<NonNullable<RunList['scope']>, string> = {
  place: 'started in this channel',
  asker: 'yours, from every channel',
  admin: 'every run the service has',
  workspace: 'every run of this workspace',
};

/**
 * A requester in a list, without notifying them: the asker may be mentioned (it is their own
 * list); anyone else by display name, or as "someone else" when Slack gave none.
 */
function requesterText(who: PersonView, asker: PersonView | undefined): string {
  if (asker !== undefined && who.id === asker.id && who.platform === asker.platform) {
    return person(who);
  }
  if (who.platform === 'github') return person(who);
  return who.name === undefined ? 'someone else' : escapeMrkdwn(oneLine(who.name));
}

function runLine(run: RunView, asker: PersonView | undefined): string {
  const name = truncatePlain(oneLine(run.title) || run.runId, 150);
  const titled =
    run.sessionLink === undefined ? `*${escapeMrkdwn(name)}*` : `*${link(run.sessionLink, name)}*`;
  const details = [
    `${run.state.emoji} ${escapeMrkdwn(run.state.label)}`,
    code(shortRunId(run.runId)),
    ...(run.requester === undefined ? [] : [`by ${requesterText(run.requester, asker)}`]),
    ...(run.runTime === undefined ? [] : [escapeMrkdwn(run.runTime)]),
    ...(run.usage?.costUsd === undefined ? [] : [escapeMrkdwn(formatCost(run.usage.costUsd))]),
    ...(run.updatedAgo === undefined ? [] : [escapeMrkdwn(run.updatedAgo)]),
  ];
  return `${titled}\n${details.join(' · ')}`;
}

export function renderRunList(model: RunList): Rendered {
  const shown = model.runs.slice(0, MAX_RUNS);
  const about = [model.scope ? SCOPE_TEXT[model.scope] : '', filtersText(model.filters)];
  const said = about.filter((t) => t !== '');
  const blocks: KnownBlock[] = [
    header('Recent runs'),
    context([said.length > 0 ? said.join(' · ') : 'all recent runs']),
  ];
  if (shown.length === 0) blocks.push(section('No runs match.'));
  for (const run of shown) blocks.push(section(runLine(run, model.asker)));
  if (model.truncated || model.runs.length > shown.length) {
    blocks.push(context(['More runs exist: narrow the list with `state=`, `name=` or `mine`.']));
  }
  const month = monthLine(model.month, 'channel');
  if (month !== undefined) blocks.push(context([escapeMrkdwn(month)]));
  const lines = shown.map(
    (r) =>
      `${r.state.emoji} ${escapeMrkdwn(truncatePlain(oneLine(r.title), 80))} (${escapeMrkdwn(r.state.label)})`,
  );
  const text =
    shown.length === 0 ? 'Recent runs: none match.' : `Recent runs:\n${lines.join('\n')}`;
  return { text, blocks };
}
