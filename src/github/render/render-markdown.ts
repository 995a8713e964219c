/**
 * The GitHub renderer: MessageModel -> Markdown comment bodies. Each body fits GitHub's
 * 65,536-character limit; longer output is split without breaking code blocks.
 */
import { renderReviewMarkdown } from './render-review.js';
import { DEFAULT_BOT_HANDLE, DEFAULT_COMMAND_WORD } from '../../core/command/parse-command.js';
import type { MessageModel, OptionKey } from '../../core/message/message-model.js';
import { RUN_MODES } from '../../core/command/run-modes.js';
import { labelledUsage } from '../../core/message/usage-text.js';
import { codeBlock } from '../../core/message/markdown-gfm.js';
import { codeSpan, escapeInline, link } from './markdown-escape.js';
import {
  personMention,
  personQuiet,
  renderFollowupSent,
  renderRunList,
  renderRunOutcome,
  renderRunStatus,
  type RenderContext,
} from './render-run.js';
import { GITHUB_COMMENT_LIMIT, splitComment } from './split-comment.js';
import { shortHelpRows } from '../../core/command/help-text.js';

export interface RenderOptions {
  /** The line command shown in footers and help. Default `/agent`. */
  commandWord?: string;
  /** The @-handle (without @). Default `agent-relay`. */
  botHandle?: string;
  /** Largest comment body. Default GitHub's 65,536. */
  limit?: number;
}

const TONE_EMOJI = { info: 'ℹ️', warning: '⚠️', error: '❌' } as const;

const OPTION_HINT: Record<OptionKey, string> = {
  model: 'model id',
  env: 'environment id',
  skill: 'skill spec, `owner/repo:skill-name`',
  name: 'agent config name',
  title: 'run title',
  mode: `one of ${RUN_MODES.map((m) => `\`${m}\``).join(', ')}`,
  factory: 'factory alias',
  steer: '`anyone` or `requester`',
  budget: 'monthly budget in US dollars, e.g. `20`',
  cap: 'spending cap per run in US dollars, e.g. `5`',
  approve: '`requester`, `admins` or `anyone`',
};

/** Multi-line plain text: every line escaped, line breaks kept. */
function paragraph(text: string): string {
  return text
    .split(/\r?\n|\r/)
    .map((line) => escapeInline(line))
    .join('  \n');
}

function renderHelp(invocation: string, options: OptionKey[], ctx: RenderContext): string {
  const cmd = (words: string): string => codeSpan(`${invocation} ${words}`, { inTable: true });
  const rows = shortHelpRows('thread', 'show or set the defaults of this repository');
  const out = [
    `#### How to use ${escapeInline(invocation)}`,
    '',
    '| Command | What it does |',
    '|---|---|',
    ...rows.map(([words, what]) => `| ${cmd(words)} | ${escapeInline(what)} |`),
  ];
  if (options.length > 0) {
    const list = options.map((o) => `${codeSpan(`${o}=…`)} (${OPTION_HINT[o]})`).join(', ');
    out.push(
      '',
      `Options may lead any prompt: ${list}; or in brackets: ${codeSpan('[model=x, env=y]')}.`,
    );
  }
  out.push(
    '',
    `Mention ${codeSpan(`@${ctx.botHandle}`)} anywhere in a comment, or start a line with ${codeSpan(ctx.commandWord)}.`,
  );
  return out.join('\n');
}

type ConfigModel = Extract<MessageModel, { type: 'config' }>;

function renderConfig(model: ConfigModel, ctx: RenderContext): string {
  const heading = `#### Defaults for ${codeSpan(model.scope)}`;
  const changed =
    model.changed.length > 0
      ? `Changed: ${model.changed.map((k) => codeSpan(k)).join(', ')}.`
      : undefined;
  if (model.settings.length === 0) {
    return [
      heading,
      '',
      ...(changed ? [changed, ''] : []),
      "No defaults are set for this repository; the service's defaults apply.",
      `Set one with ${codeSpan(`${ctx.commandWord} config model=<id>`)}.`,
    ].join('\n');
  }
  const rows = model.settings.map((s) => {
    const mark = model.changed.includes(s.key) ? ' ✏️' : '';
    const by =
      s.updatedBy === undefined ? '' : personQuiet({ platform: 'github', id: s.updatedBy });
    return `| ${codeSpan(s.key, { inTable: true })}${mark} | ${codeSpan(s.value, { inTable: true })} | ${by} |`;
  });
  return [
    heading,
    '',
    ...(changed ? [changed, ''] : []),
    '| Setting | Value | Set by |',
    '|---|---|---|',
    ...rows,
  ].join('\n');
}

type FactoryChoiceModel = Extract<MessageModel, { type: 'factory_choice' }>;

function renderFactoryChoice(model: FactoryChoiceModel, ctx: RenderContext): string {
  const alias = codeSpan(model.alias);
  if (model.candidates.length === 0) {
    const known = (model.available ?? []).filter((f) => f.alias !== undefined).slice(0, 20);
    if (known.length === 0) return `⚠️ No factory matches ${alias}. Check the alias and try again.`;
    const names = known.map((f) => `${codeSpan(f.alias ?? '')} (${escapeInline(f.name)})`);
    return `⚠️ No factory matches ${alias}. Factories you can name: ${names.join(', ')}.`;
  }
  const items = model.candidates.map((c) => {
    const a = c.alias === undefined ? '' : ` ${codeSpan(c.alias)}`;
    return `- **${escapeInline(c.name)}**${a} (${codeSpan(c.uid)})`;
  });
  const how = codeSpan(`${ctx.commandWord} factory <alias> <prompt>`);
  return [`Several factories match ${alias}; say which one with ${how}:`, '', ...items].join('\n');
}

type NoticeModel = Extract<MessageModel, { type: 'notice' }>;

function renderNotice(model: NoticeModel): string {
  const mention = model.mention === undefined ? '' : `${personMention(model.mention)} `;
  const linked = model.link === undefined ? '' : ` ${link(model.link.label, model.link.url)}`;
  const out = [`${TONE_EMOJI[model.tone]} ${mention}${paragraph(model.text)}${linked}`];
  if (model.usage !== undefined) out.push('', codeBlock(model.usage));
  return out.join('\n');
}

type BriefModel = Extract<MessageModel, { type: 'run_brief' }>;

function renderRunBrief(model: BriefModel): string {
  const { run } = model;
  const time = run.runTime === undefined ? '' : ` after ${escapeInline(run.runTime)}`;
  // The state first, the title after a colon: a title made from the prompt reads well too.
  const usage = labelledUsage(run, run.state.live);
  const used = usage === undefined ? '' : ` ${escapeInline(usage)}.`;
  const head = `${run.state.emoji} ${escapeInline(run.state.label)}${time}: **${escapeInline(run.title)}**.${used}`;
  if (model.hasCard) {
    const card = link('Its status comment', model.cardUrl);
    return `${head} ${card} is up to date.`;
  }
  const out = [head];
  if (run.statusMessage !== undefined) out.push('', paragraph(run.statusMessage));
  return out.join('\n');
}

type ChoiceModel = Extract<MessageModel, { type: 'run_choice' }>;

function renderRunChoice(model: ChoiceModel, ctx: RenderContext): string {
  const items = model.runs.map(
    (run) =>
      `- ${run.state.emoji} **${escapeInline(run.title)}**: ${codeSpan(`${ctx.commandWord} ${model.action} ${run.runId}`)}`,
  );
  return [`You have ${model.runs.length} live runs here. Which one?`, '', ...items].join('\n');
}

/** One Markdown body for the model, before splitting. */
export function renderGitHubMarkdown(model: MessageModel, opts: RenderOptions = {}): string {
  const ctx: RenderContext = {
    commandWord: opts.commandWord ?? DEFAULT_COMMAND_WORD,
    botHandle: opts.botHandle ?? DEFAULT_BOT_HANDLE,
  };
  switch (model.type) {
    case 'run_status':
      return renderRunStatus(model.run, ctx);
    case 'run_outcome':
      return renderRunOutcome(model.run, {
        ...(model.cardUrl === undefined ? {} : { cardUrl: model.cardUrl }),
        ...(model.requestUrl === undefined ? {} : { requestUrl: model.requestUrl }),
      });
    case 'followup_sent':
      return renderFollowupSent(model.run, model.message, model.routed);
    case 'run_list':
      return renderRunList(model);
    case 'config':
      return renderConfig(model, ctx);
    case 'help':
      return renderHelp(model.invocation, model.options, ctx);
    case 'notice':
      return renderNotice(model);
    case 'factory_choice':
      return renderFactoryChoice(model, ctx);
    case 'run_brief':
      return renderRunBrief(model);
    case 'run_choice':
      return renderRunChoice(model, ctx);
    case 'review':
      return renderReviewMarkdown(model, `@${ctx.botHandle}`);
  }
}

/**
 * Render a model as one or more GitHub comment bodies, each within the limit, split without
 * breaking code blocks.
 */
export function renderGitHubMessage(model: MessageModel, opts: RenderOptions = {}): string[] {
  const body = renderGitHubMarkdown(model, opts);
  return splitComment(body, {
    limit: opts.limit ?? GITHUB_COMMENT_LIMIT,
    continuedNote: '<sub>(continued in the next comment)</sub>',
  });
}
