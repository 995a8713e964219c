/**
 * Markdown for the messages about one run (or a list of runs): the single status comment,
 * the outcome reply that pings the requester, the follow-up confirmation and `list`.
 * Pure functions of the model; every user or service text is escaped.
 */
import type {
  AppliedSetting,
  LinkView,
  MessageModel,
  OptionKey,
  PersonView,
  RunView,
} from '../../core/message/message-model.js';
import { codeSpan, escapeBlockQuote, escapeInline, link } from './markdown-escape.js';

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
};

const SOURCE_LABEL: Record<AppliedSetting['source'], string> = {
  inline: 'inline option',
  default: 'repository default',
  service: 'service default',
};

/** A person as text that does not notify them (`@\u200blogin`). */
export function personQuiet(person: PersonView | undefined): string {
  if (person === undefined) return 'unknown';
  return escapeInline(person.platform === 'github' ? `@${person.id}` : (person.name ?? person.id));
}

/** A person as a real mention (notifies), when the id is a GitHub login. */
export function personMention(person: PersonView): string {
  if (person.platform === 'github' && GITHUB_LOGIN.test(person.id)) return `@${person.id}`;
  return escapeInline(person.name ?? person.id);
}

function settingRows(run: RunView): string[] {
  const byKey = new Map(run.applied.map((s) => [s.key, s]));
  const keys: OptionKey[] = ['model', 'env', 'skill'];
  for (const s of run.applied) if (!keys.includes(s.key) && s.key !== 'title') keys.push(s.key);
  if (run.factory !== undefined && !keys.includes('factory')) keys.push('factory');
  return keys.map((key) => {
    const setting = byKey.get(key);
    const value =
      key === 'factory' && run.factory !== undefined
        ? factoryText(run.factory, setting?.value)
        : setting?.value === undefined
          ? '—'
          : codeSpan(setting.value, { inTable: true });
    // A factory the service reports without a recorded setting: say nothing about its source.
    if (setting === undefined && key === 'factory') return `| ${SETTING_LABEL[key]} | ${value} |`;
    const source = SOURCE_LABEL[setting?.source ?? 'service'];
    return `| ${SETTING_LABEL[key]} | ${value} · ${source} |`;
  });
}

function factoryText(factory: { alias?: string; name?: string }, fallback?: string): string {
  const alias = factory.alias ?? fallback;
  const parts = [alias === undefined ? undefined : codeSpan(alias, { inTable: true })];
  if (factory.name !== undefined) parts.push(escapeInline(factory.name));
  return parts.filter((p) => p !== undefined).join(' ') || '—';
}

function linksText(links: LinkView[]): string {
  return links.map((l) => link(l.label, l.url)).join(' · ');
}

/** The commands footer, and how to follow up. */
function footer(run: RunView, ctx: RenderContext): string {
  const commands = run.actions.map((a) => codeSpan(`${ctx.commandWord} ${a}`));
  const followUp = `reply with ${codeSpan(`@${ctx.botHandle} <message>`)} to follow up`;
  const lead = commands.length > 0 ? `Commands: ${commands.join(' · ')} · ` : '';
  return `<sub>${lead}${followUp}</sub>`;
}

export function renderRunStatus(run: RunView, ctx: RenderContext): string {
  const { state } = run;
  const rows = [
    // A run that is still starting has no id yet.
    `| Run | ${run.runId === '' ? '—' : codeSpan(run.runId, { inTable: true })} |`,
    '|---|---|',
    `| State | ${state.emoji} ${escapeInline(state.label)} (${codeSpan(state.name, { inTable: true })}) |`,
    `| Requested by | ${personQuiet(run.requester)} |`,
    ...settingRows(run),
  ];
  if (run.runTime !== undefined) rows.push(`| Run time | ${escapeInline(run.runTime)} |`);
  if (run.sessionLink !== undefined)
    rows.push(`| Session | ${link('Open session', run.sessionLink)} |`);
  if (run.links.length > 0) rows.push(`| Links | ${linksText(run.links)} |`);
  const out = [
    `### ${state.emoji} ${escapeInline(state.label)}: ${escapeInline(run.title)}`,
    '',
    ...rows,
  ];
  if (run.statusMessage !== undefined && run.statusMessage.trim() !== '') {
    out.push('', escapeBlockQuote(run.statusMessage));
  }
  out.push('', footer(run, ctx));
  return out.join('\n');
}

function outcomeSentence(run: RunView): string {
  const { state } = run;
  const title = `**${escapeInline(run.title)}**`;
  if (state.blocked) return `${state.emoji} The run ${title} is waiting for your input.`;
  if (state.success === true) return `${state.emoji} The run ${title} succeeded.`;
  if (state.name === 'CANCELLED') return `${state.emoji} The run ${title} was cancelled.`;
  if (state.success === false)
    return `${state.emoji} The run ${title} failed (${escapeInline(state.label)}).`;
  return `${state.emoji} The run ${title} is now ${escapeInline(state.label)}.`;
}

export function renderRunOutcome(run: RunView, ctx: RenderContext): string {
  const lead = run.requester === undefined ? '' : `${personMention(run.requester)} `;
  const out = [`${lead}${outcomeSentence(run)}`];
  if (run.statusMessage !== undefined && run.statusMessage.trim() !== '') {
    out.push('', escapeBlockQuote(run.statusMessage));
  }
  const details: string[] = [];
  if (run.links.length > 0) details.push(`**Links:** ${linksText(run.links)}`);
  const sessionListed = run.links.some((l) => l.kind === 'session');
  if (run.sessionLink !== undefined && !sessionListed) {
    details.push(link('Session', run.sessionLink));
  }
  if (run.runTime !== undefined) details.push(`Run time: ${escapeInline(run.runTime)}`);
  details.push(`Run ${codeSpan(run.runId)}`);
  out.push('', details.join(' · '));
  if (run.state.blocked) {
    out.push('', `Reply with ${codeSpan(`@${ctx.botHandle} <answer>`)} to continue the run.`);
  }
  return out.join('\n');
}

export function renderFollowupSent(run: RunView, message: string): string {
  const quoted = message.trim() === '' ? [] : ['', escapeBlockQuote(message)];
  return [
    `✉️ Follow-up sent to **${escapeInline(run.title)}** (${codeSpan(run.runId)}).`,
    ...quoted,
  ].join('\n');
}

type RunListModel = Extract<MessageModel, { type: 'run_list' }>;

export function renderRunList(model: RunListModel): string {
  const filters: string[] = [];
  if (model.filters.state !== undefined && model.filters.state.length > 0) {
    filters.push(codeSpan(`state=${model.filters.state.join(',')}`));
  }
  if (model.filters.name !== undefined) filters.push(codeSpan(`name=${model.filters.name}`));
  if (model.filters.mine === true) filters.push(codeSpan('mine'));
  const heading = `#### Recent runs${filters.length > 0 ? ` (${filters.join(' ')})` : ''}`;
  if (model.runs.length === 0) return `${heading}\n\nNo runs match.`;
  const rows = model.runs.map((run) => {
    const title = link(run.title, run.sessionLink);
    const state = `${run.state.emoji} ${escapeInline(run.state.label)}`;
    const updated = run.updatedAt === undefined ? '' : escapeInline(run.updatedAt);
    return `| ${state} | ${title} | ${codeSpan(run.runId, { inTable: true })} | ${personQuiet(run.requester)} | ${updated} |`;
  });
  const out = [
    heading,
    '',
    '| State | Title | Run | Requested by | Updated |',
    '|---|---|---|---|---|',
    ...rows,
  ];
  if (model.truncated)
    out.push('', '_More runs exist: narrow the list with `state=…` or `name=…`._');
  return out.join('\n');
}
