/**
 * Markdown for the messages about one run (or a list of runs): the single status comment,
 * the outcome reply that pings the requester, the follow-up confirmation and `list`.
 * Pure functions of the model; every user or service text is escaped.
 */
import type {
  AppliedSetting,
  MessageModel,
  OptionKey,
  PersonView,
  RunView,
} from '../../core/message/message-model.js';
import { codeSpan, escapeBlockQuote, escapeInline, link } from './markdown-escape.js';
import { STARTING_STATE } from '../../core/message/state-view.js';
import { pullRequestLinks } from '../../core/message/run-links.js';
import { shortRunId } from '../../core/message/short-run-id.js';
import { ROUTED_WORDS } from '../../core/message/followup-routing.js';
import type { FollowupRouting } from '../../core/message/message-model.js';
import { agentMarkdown, agentWordsLines, progressLines } from './agent-words.js';
import { reviewHeadline, typedAnswers } from '../../core/message/review-text.js';
import { formatCost, labelledUsage, monthLine } from '../../core/message/usage-text.js';

export interface RenderContext {
  /** The line command, e.g. `/agent`. */
  commandWord: string;
  /** The @-handle (without @) that addresses the bot. */
  botHandle: string;
}

const GITHUB_LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?$/;

const SETTING_LABEL: Record<OptionKey, string> = {
  model: 'Model',
  env: 'Environment',
  skill: 'Skill',
  factory: 'Factory',
  name: 'Name',
  title: 'Title',
  mode: 'Mode',
  steer: 'Follow-ups',
  budget: 'Monthly budget',
  cap: 'Spending cap (USD)',
  approve: 'Approvals',
};

const SOURCE_LABEL: Record<AppliedSetting['source'], string> = {
  inline: 'inline option',
  personal: 'personal default',
  default: 'repository default',
  service: 'service default',
  repository: "this repository's environment",
};

/** A person as text that does not notify them (`@\u200blogin`). */
export function personQuiet(person: PersonView | undefined): string {
  if (person === undefined) return 'unknown';
  // A Slack user id means nothing on GitHub: the name when known, else who they are.
  return escapeInline(
    person.platform === 'github' ? `@${person.id}` : `${person.name ?? 'someone'} (Slack)`,
  );
}

/** A person as a real mention (notifies), when the id is a GitHub login. */
export function personMention(person: PersonView): string {
  if (person.platform === 'github' && GITHUB_LOGIN.test(person.id)) return `@${person.id}`;
  if (person.platform === 'slack') return personQuiet(person);
  return escapeInline(person.name ?? person.id);
}

/** One cell of settings: what was chosen and where from; what the service chose, once. */
function settingsCell(run: RunView): string {
  const chosen: string[] = [];
  const byService: string[] = [];
  for (const s of run.applied) {
    if (s.key === 'title') continue;
    const label = SETTING_LABEL[s.key].toLowerCase();
    if (s.key === 'factory' && run.factory !== undefined) {
      chosen.push(`factory ${factoryText(run.factory, s.value)} (${SOURCE_LABEL[s.source]})`);
      continue;
    }
    if (s.source === 'service') {
      byService.push(
        s.value === undefined ? label : `${label} ${codeSpan(s.value, { inTable: true })}`,
      );
      continue;
    }
    const value = s.value === undefined ? '' : ` ${codeSpan(s.value, { inTable: true })}`;
    chosen.push(`${label}${value} (${SOURCE_LABEL[s.source]})`);
  }
  if (run.factory !== undefined && !run.applied.some((s) => s.key === 'factory')) {
    chosen.push(`factory ${factoryText(run.factory)}`);
  }
  if (byService.length > 0) chosen.push(`service defaults: ${byService.join(', ')}`);
  for (const s of run.applied)
    if (s.note) chosen.push(escapeInline(s.note));
    else if (chosen.length === 0) chosen.push('service defaults');
  return chosen.join(' · ');
}

function factoryText(factory: { alias?: string; name?: string }, fallback?: string): string {
  const alias = factory.alias ?? fallback;
  const parts = [alias === undefined ? undefined : codeSpan(alias, { inTable: true })];
  if (factory.name !== undefined) parts.push(escapeInline(factory.name));
  return parts.filter((p) => p !== undefined).join(' ') || '—';
}

/** The session first, then the other links, each once. */
function allLinks(run: RunView): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (label: string, url: string | undefined, branch?: string) => {
    if (url === undefined || seen.has(url)) return;
    seen.add(url);
    out.push(branch === undefined ? link(label, url) : `${link(label, url)} ${codeSpan(branch)}`);
  };
  add('Session', run.sessionLink);
  for (const l of run.links) add(l.kind === 'session' ? 'Session' : l.label, l.url, l.branch);
  return out;
}

/**
 * The commands footer, and how to follow up, unless the card's "Next:" line above already
 * says how to reply.
 */
function footer(run: RunView, ctx: RenderContext): string {
  const commands = run.actions.map((a) => codeSpan(`${ctx.commandWord} ${a}`));
  const parts = commands.length > 0 ? [`Commands: ${commands.join(' · ')}`] : [];
  if (nextStep(run, ctx) === undefined)
    parts.push(`reply with ${codeSpan(`@${ctx.botHandle} <message>`)} to follow up`);
  return parts.length === 0 ? '' : `<sub>${parts.join(' · ')}</sub>`;
}

/** What a person can do after a run that did not succeed. */
export function nextStep(run: RunView, ctx: RenderContext): string | undefined {
  const reply = codeSpan(`@${ctx.botHandle} <message>`);
  const fresh = codeSpan(`@${ctx.botHandle} new <prompt>`);
  if (run.state.blocked) {
    return `**Next:** answer with ${codeSpan(`@${ctx.botHandle} <answer>`)} to continue the run.`;
  }
  if (run.state.success !== false) return undefined;
  if (run.state.name === 'CANCELLED') {
    return `**Next:** reply with ${reply} to resume it, or ${fresh} to start over.`;
  }
  return `**Next:** reply with ${reply} to retry with more guidance, or ${fresh} to start over.`;
}

/**
 * "finished: **Fix it** · for @alice in 2m 3s": the sentence of the header line. The title
 * follows a colon, so a title made from the prompt reads as well as one the service gave; the
 * words follow the headline order (Starting… → Waiting for a machine → Getting ready →
 * Running → the outcome).
 */
function headline(run: RunView): string {
  const { state } = run;
  const title = `**${escapeInline(run.title)}**`;
  const who = run.requester === undefined ? '' : ` · for ${personQuiet(run.requester)}`;
  const time = run.runTime === undefined ? '' : ` in ${escapeInline(run.runTime)}`;
  const after = run.runTime === undefined ? '' : ` after ${escapeInline(run.runTime)}`;
  if (state.success === true) return `finished: ${title}${who}${time}`;
  // Cancelled, not "stopped": Stop interrupts a turn and the run goes on; Cancel ends it.
  if (state.name === 'CANCELLED') return `was cancelled: ${title}${who}${after}`;
  if (state.success === false) {
    const what = escapeInline(state.label.toLowerCase());
    return `could not finish: ${title}${who}, ${what}${after}`;
  }
  if (state.blocked) return `needs an answer: ${title}${who}`;
  if (state.name === 'INPROGRESS') return `is working on: ${title}${who}`;
  if (state.name === 'QUEUED' || state.name === 'PENDING')
    return `is waiting for a machine: ${title}${who}`;
  if (state.name === 'CLAIMED') return `is getting ready: ${title}${who}`;
  if (state.name === STARTING_STATE) return `is starting: ${title}${who}`;
  return `has: ${title}${who} (${escapeInline(state.label)})`;
}

export function renderRunStatus(run: RunView, ctx: RenderContext): string {
  const { state } = run;
  const links = allLinks(run);
  const head = `${state.emoji} **${escapeInline(ctx.botHandle)}** ${headline(run)}${links.length > 0 ? ` — ${links.join(' · ')}` : ''}`;
  const rows = [
    `| State | ${state.emoji} ${escapeInline(state.label)} (${codeSpan(state.name, { inTable: true })}) |`,
    `| Requested by | ${personQuiet(run.requester)} |`,
    `| Settings | ${settingsCell(run)} |`,
  ];
  if (run.runTime !== undefined) rows.push(`| Run time | ${escapeInline(run.runTime)} |`);
  const out = [head];
  const now = progressLines(run);
  if (now.length > 0) out.push('', ...now);
  const usage = labelledUsage(run, run.state.live);
  if (usage !== undefined) out.push('', escapeInline(usage));
  if (run.statusMessage !== undefined && run.statusMessage.trim() !== '') {
    out.push('', escapeBlockQuote(run.statusMessage));
  }
  const next = nextStep(run, ctx);
  if (next !== undefined) out.push('', next);
  const review = run.state.blocked ? run.review : undefined;
  if (review?.kind === 'plan') {
    // The plan, where the run's card is: folded, as GitHub folds long details.
    out.push('', `📋 **${reviewHeadline(review)}**`);
    if (review.plan?.markdown !== undefined)
      out.push(
        '',
        '<details open>',
        '<summary>The plan</summary>',
        '',
        agentMarkdown(review.plan.markdown),
        '',
        '</details>',
      );
    if (review.plan?.url !== undefined) out.push('', link('Open the plan', review.plan.url));
    out.push('', typedAnswers(review, `@${ctx.botHandle}`));
  }
  out.push(
    '',
    '<details>',
    // Markdown is not read inside an HTML block: the summary is plain words.
    // A run that is still starting has no id yet.
    run.runId === ''
      ? '<summary>Details</summary>'
      : `<summary>Details of run ${escapeInline(shortRunId(run.runId)).replace(/</g, '&lt;')}</summary>`,
    '',
    `| Run | ${run.runId === '' ? '—' : codeSpan(run.runId, { inTable: true })} |`,
    '|---|---|',
    ...rows,
    '',
    '</details>',
  );
  const foot = footer(run, ctx);
  if (foot !== '') out.push('', foot);
  return out.join('\n');
}

/** The outcome in words a person knows, with the run time: "succeeded in 3s". */
function outcomeWords(run: RunView): string {
  const { state } = run;
  const time = run.runTime === undefined ? '' : escapeInline(run.runTime);
  if (state.blocked) return 'is waiting for your input';
  if (state.success === true) return `succeeded${time === '' ? '' : ` in ${time}`}`;
  const after = time === '' ? '' : ` after ${time}`;
  if (state.name === 'CANCELLED') return `was cancelled${after}`;
  if (state.name === 'FAILED') return `failed${after}`;
  if (state.success === false)
    return `ended with ${escapeInline(state.label.toLowerCase())}${after}`;
  return `is now ${escapeInline(state.label)}`;
}

/**
 * The one comment that notifies the requester when a run ends or waits: the outcome, which
 * request it answers, and a link to the status comment (the card), which holds the detail.
 * Never a copy of the card: no quote, no run id, no next-step line.
 */
export function renderRunOutcome(
  run: RunView,
  about: { cardUrl?: string; requestUrl?: string } = {},
): string {
  const lead = run.requester === undefined ? '' : `${personMention(run.requester)} `;
  // The title after a colon: a title made from the prompt reads as well as a given one.
  const subject = `**${escapeInline(run.title)}**`;
  const answers =
    about.requestUrl === undefined ? '' : ` (${link('your request', about.requestUrl)})`;
  const where = run.state.blocked
    ? 'the question and how to answer'
    : run.state.success === false
      ? 'details and what to do next'
      : 'details';
  const words = agentWordsLines(run);
  // With the agent's own words below, a BLOCKED run's question is here, not on the card.
  const pointed = words.length > 0 && run.state.blocked ? 'how to answer' : where;
  const card = about.cardUrl === undefined ? `${pointed} above` : link(pointed, about.cardUrl);
  const prs = pullRequestLinks(run.links).map((l) => `${link(l.label, l.url)} · `);
  const line = `${lead}${run.state.emoji} Run ${outcomeWords(run)}: ${subject}${answers} · ${prs.join('')}${card}`;
  return [line, ...words].join('\n');
}

export function renderFollowupSent(
  run: RunView,
  message: string,
  routed?: FollowupRouting,
): string {
  const quoted = message.trim() === '' ? [] : ['', escapeBlockQuote(message)];
  const where = routed === undefined ? '' : ` (${ROUTED_WORDS[routed]})`;
  return [`✉️ Follow-up sent to: **${escapeInline(run.title)}**${where}.`, ...quoted].join('\n');
}

type RunListModel = Extract<MessageModel, { type: 'run_list' }>;

export function renderRunList(model: RunListModel): string {
  const filters: string[] = [];
  if (model.filters.state !== undefined && model.filters.state.length > 0) {
    filters.push(codeSpan(`state=${model.filters.state.join(',')}`));
  }
  if (model.filters.name !== undefined) filters.push(codeSpan(`name=${model.filters.name}`));
  if (model.filters.mine === true) filters.push(codeSpan('mine'));
  const where = model.scope === 'place' ? ' in this repository' : '';
  const heading = `#### Recent runs${where}${filters.length > 0 ? ` (${filters.join(' ')})` : ''}`;
  const month = monthLine(model.month, 'repository');
  const monthSaid = month === undefined ? '' : `\n\n${escapeInline(month)}`;
  if (model.runs.length === 0) return `${heading}\n\nNo runs match.${monthSaid}`;
  const rows = model.runs.map((run) => {
    const title = link(run.title, run.sessionLink);
    const state = `${run.state.emoji} ${escapeInline(run.state.label)}`;
    const updated = escapeInline(run.updatedAgo ?? run.updatedAt ?? '');
    const cost =
      run.usage?.costUsd === undefined ? '' : escapeInline(formatCost(run.usage.costUsd));
    return `| ${state} | ${title} | ${codeSpan(shortRunId(run.runId), { inTable: true })} | ${personQuiet(run.requester)} | ${updated} | ${cost} |`;
  });
  const out = [
    heading,
    '',
    '| State | Title | Run | Requested by | Updated | Cost |',
    '|---|---|---|---|---|---|',
    ...rows,
  ];
  if (model.truncated)
    out.push('', '_More runs exist: narrow the list with `state=…` or `name=…`._');
  if (month !== undefined) out.push('', escapeInline(month));
  return out.join('\n');
}
