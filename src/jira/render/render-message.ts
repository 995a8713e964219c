/**
 * The Jira renderer: the neutral message model as one ADF comment body. The status comment
 * (state, what the agent is doing now, cost, links, settings), the outcome comment that
 * mentions the requester with the agent's own words, and the short answers. Pure functions
 * of the model; every text of a person or the service is a text node, never markup.
 */
import type {
  AppliedSetting,
  MessageModel,
  PersonView,
  RunView,
} from '../../core/message/message-model.js';
import { ROUTED_WORDS } from '../../core/message/followup-routing.js';
import { clip } from '../../core/text.js';
import { STEP_MARK } from '../../core/message/progress.js';
import { shortRunId } from '../../core/message/short-run-id.js';
import { headlineWords, outcomeWords } from '../../core/message/state-view.js';
import { formatCost, labelledUsage } from '../../core/message/usage-text.js';
import {
  bulletList,
  code,
  codeBlock,
  doc,
  heading,
  lines,
  link,
  mention,
  paragraph,
  strong,
  text,
  type AdfBlock,
  type AdfDoc,
  type AdfInline,
} from '../api/adf.js';
import { markdownToAdf } from './markdown-to-adf.js';
import { capWords, reviewHeadline, typedAnswers } from '../../core/message/review-text.js';
import { shortHelpRows } from '../../core/command/help-text.js';

export interface JiraRenderOptions {
  /** The plain-text handle shown in how-to lines (`@agent-relay`). */
  botHandle: string;
}

/** Characters of the agent's words in one comment (far below Jira's comment limit). */
const AGENT_WORDS_CHARS = 6_000;

const TONE = { info: 'ℹ️', warning: '⚠️', error: '❌' } as const;
const SOURCE: Record<AppliedSetting['source'], string> = {
  inline: 'inline option',
  personal: 'personal default',
  default: 'project default',
  service: 'service default',
  repository: "the repository's environment",
};

/** A Jira person as a mention node (notifies); anyone else as their name. */
function personNode(person: PersonView | undefined): AdfInline[] {
  if (person === undefined) return text('someone');
  if (person.platform === 'jira') return [mention(person.id, person.name)];
  return text(person.name ?? person.id);
}

/** A person named without notifying them. */
function personQuiet(person: PersonView | undefined): AdfInline[] {
  return text(person === undefined ? 'unknown' : (person.name ?? person.id));
}

function runLinks(run: RunView): AdfInline[][] {
  const out: AdfInline[][] = [];
  const seen = new Set<string>();
  const add = (label: string, url: string | undefined, branch?: string) => {
    if (url === undefined || seen.has(url)) return;
    seen.add(url);
    out.push([...link(label, url), ...(branch ? [...text(' '), ...code(branch)] : [])]);
  };
  add('Session', run.sessionLink);
  for (const l of run.links) add(l.kind === 'session' ? 'Session' : l.label, l.url, l.branch);
  return out;
}

function joined(parts: AdfInline[][], separator: string): AdfInline[] {
  return parts.flatMap((p, i) => (i === 0 ? p : [...text(separator), ...p]));
}

function settingsText(run: RunView): string {
  const chosen = run.applied
    .filter((s) => s.key !== 'title')
    .map((s) =>
      s.source === 'service' && s.value === undefined
        ? `${s.key}: service default`
        : `${[s.key, s.value].filter(Boolean).join(' ')} (${SOURCE[s.source]})`,
    );
  if (run.factory !== undefined && !run.applied.some((s) => s.key === 'factory'))
    chosen.push(`factory ${run.factory.alias ?? run.factory.name ?? ''}`.trim());
  return chosen.length > 0 ? chosen.join(' · ') : 'service defaults';
}

function progressBlocks(run: RunView): AdfBlock[] {
  const progress = run.progress;
  if (progress === undefined || !run.state.live) return [];
  if (progress.kind === 'setup')
    return [paragraph(strong('Setting up: '), text(progress.events.join(', ')))];
  if (progress.steps.length === 0) return [];
  return [
    paragraph(strong('Now:')),
    bulletList(
      progress.steps.map((s) => [
        paragraph(text(`${STEP_MARK[s.state]} ${s.title.slice(0, 200)}`)),
      ]),
    ),
  ];
}

/** What a person can do after a run that waits or did not succeed. */
function nextStep(run: RunView, o: JiraRenderOptions): AdfBlock[] {
  const reply = code(`@${o.botHandle} <message>`);
  if (run.state.blocked)
    return [
      paragraph(
        strong('Next: '),
        text('answer with '),
        code(`@${o.botHandle} <answer>`),
        text(' to continue the run.'),
      ),
    ];
  if (run.state.success !== false) return [];
  const fresh = code(`@${o.botHandle} new <prompt>`);
  const what =
    run.state.name === 'CANCELLED' ? ' to resume it, or ' : ' to retry with more guidance, or ';
  return [
    paragraph(
      strong('Next: '),
      text('reply with '),
      reply,
      text(what),
      fresh,
      text(' to start over.'),
    ),
  ];
}

function renderStatus(run: RunView, o: JiraRenderOptions): AdfBlock[] {
  const links = runLinks(run);
  const out: AdfBlock[] = [
    paragraph(
      text(`${run.state.emoji} `),
      strong(o.botHandle),
      text(` ${headlineWords(run.state)}: `),
      strong(run.title),
      text(' · for '),
      personQuiet(run.requester),
      run.runTime === undefined ? [] : text(` · ${run.runTime}`),
    ),
  ];
  if (links.length > 0) out.push(paragraph(joined(links, ' · ')));
  out.push(...progressBlocks(run));
  const usage = labelledUsage(run, run.state.live);
  if (usage !== undefined) out.push(paragraph(text(usage)));
  if (run.statusMessage !== undefined && run.statusMessage.trim() !== '')
    out.push({ type: 'blockquote', content: [paragraph(lines(run.statusMessage.trim()))] });
  out.push(...nextStep(run, o));
  out.push(
    paragraph(
      text(`State: ${run.state.label} (`),
      code(run.state.name),
      text(')'),
      run.runId === '' ? [] : [...text(' · Run '), ...code(shortRunId(run.runId))],
      text(` · Settings: ${settingsText(run)}`),
    ),
  );
  const commands = run.actions.map((a) => code(`@${o.botHandle} ${a}`));
  out.push(
    paragraph(
      commands.length > 0
        ? [...text('Commands: '), ...joined(commands, ' · '), ...text(' · ')]
        : [],
      text('reply with '),
      code(`@${o.botHandle} <message>`),
      text(' to follow up'),
    ),
  );
  return out;
}

function renderOutcome(
  model: Extract<MessageModel, { type: 'run_outcome' }>,
  o: JiraRenderOptions,
): AdfBlock[] {
  const { run } = model;
  const links = runLinks(run).filter((_, i) => i > 0 || run.sessionLink === undefined);
  const usage = labelledUsage(run, false);
  const out: AdfBlock[] = [
    paragraph(
      run.requester === undefined ? [] : [...personNode(run.requester), ...text(' ')],
      text(`${run.state.emoji} Run ${outcomeWords(run)}: `),
      strong(run.title),
      model.requestUrl === undefined
        ? []
        : [...text(' ('), ...link('your request', model.requestUrl), ...text(')')],
      model.cardUrl === undefined ? [] : [...text(' · '), ...link('details', model.cardUrl)],
    ),
  ];
  const words = run.agentMessage?.trim();
  if (words) out.push(...markdownToAdf(clip(words, AGENT_WORDS_CHARS)));
  else if (run.statusMessage?.trim())
    out.push({ type: 'blockquote', content: [paragraph(lines(run.statusMessage.trim()))] });
  if (links.length > 0) out.push(paragraph(joined(links, ' · ')));
  if (usage !== undefined) out.push(paragraph(text(usage)));
  out.push(...nextStep(run, o));
  return out;
}

/** A question about a run: the plan (or the stop at the cap) and the answers to type. */
function renderReview(
  model: Extract<MessageModel, { type: 'review' }>,
  o: JiraRenderOptions,
): AdfBlock[] {
  const { run, review } = model;
  const out: AdfBlock[] = [
    paragraph(
      run.requester === undefined || model.full ? [] : [...personNode(run.requester), ...text(' ')],
      text(
        `${review.kind === 'plan' ? '📋' : review.kind === 'action' ? '✋' : '💰'} ${reviewHeadline(review)}: `,
      ),
      strong(review.plan?.title ?? run.title),
    ),
  ];
  if (review.kind === 'cap') out.push(paragraph(text(capWords(review))));
  if (review.kind === 'action' && review.action !== undefined)
    out.push(paragraph(text('It wants to: '), code(review.action.what)));
  const markdown = review.plan?.markdown;
  if (markdown !== undefined) out.push(...markdownToAdf(clip(markdown, AGENT_WORDS_CHARS)));
  if (review.plan?.url !== undefined) out.push(paragraph(link('Open the plan', review.plan.url)));
  if (!model.full) out.push(...markdownToAdf(typedAnswers(review, `@${o.botHandle}`)));
  return out;
}

function renderList(model: Extract<MessageModel, { type: 'run_list' }>): AdfBlock[] {
  const where = model.scope === 'place' ? ' in this project' : '';
  const out: AdfBlock[] = [heading(4, text(`Recent runs${where}`))];
  if (model.runs.length === 0) out.push(paragraph(text('No runs match.')));
  else
    out.push(
      bulletList(
        model.runs.map((run) => [
          paragraph(
            text(`${run.state.emoji} ${run.state.label} · `),
            link(run.title, run.sessionLink),
            text(' · '),
            code(shortRunId(run.runId)),
            text(' · '),
            personQuiet(run.requester),
            run.usage?.costUsd === undefined ? [] : text(` · ${formatCost(run.usage.costUsd)}`),
          ),
        ]),
      ),
    );
  if (model.truncated)
    out.push(paragraph(text('More runs exist: narrow the list with state=… or name=….')));
  if (model.month !== undefined)
    out.push(
      paragraph(
        text(
          `This project has spent ${formatCost(model.month.spentUsd)} in ${model.month.name} (UTC) (approximate)`,
        ),
      ),
    );
  return out;
}

function renderHelp(
  model: Extract<MessageModel, { type: 'help' }>,
  o: JiraRenderOptions,
): AdfBlock[] {
  const rows = shortHelpRows(
    'issue',
    "show or set the project's defaults (project admins change them)",
  );
  const out: AdfBlock[] = [
    heading(4, text(`How to use @${o.botHandle}`)),
    bulletList(
      rows.map(([words, what]) => [paragraph(code(`@${o.botHandle} ${words}`), text(`: ${what}`))]),
    ),
  ];
  if (model.options.length > 0)
    out.push(
      paragraph(
        text('Options may lead any prompt: '),
        joined(
          model.options.map((k) => code(`${k}=…`)),
          ', ',
        ),
        text('.'),
      ),
    );
  return out;
}

/** The blocks of one model. */
export function renderJiraBlocks(model: MessageModel, o: JiraRenderOptions): AdfBlock[] {
  switch (model.type) {
    case 'run_status':
      return renderStatus(model.run, o);
    case 'run_outcome':
      return renderOutcome(model, o);
    case 'review':
      return renderReview(model, o);
    case 'followup_sent':
      return [
        paragraph(
          text('✉️ Follow-up sent to: '),
          strong(model.run.title),
          text(model.routed === undefined ? '.' : ` (${ROUTED_WORDS[model.routed]}).`),
        ),
      ];
    case 'run_list':
      return renderList(model);
    case 'config': {
      const head = heading(4, text('Defaults for '), code(model.scope));
      if (model.settings.length === 0)
        return [
          head,
          paragraph(text("No defaults are set for this project; the service's defaults apply.")),
        ];
      return [
        head,
        bulletList(
          model.settings.map((s) => [
            paragraph(
              code(s.key),
              text(' = '),
              code(s.value),
              text(model.changed.includes(s.key) ? ' ✏️' : ''),
            ),
          ]),
        ),
      ];
    }
    case 'help':
      return renderHelp(model, o);
    case 'notice': {
      const out: AdfBlock[] = [
        paragraph(
          text(`${TONE[model.tone]} `),
          model.mention === undefined ? [] : [...personNode(model.mention), ...text(' ')],
          lines(model.text),
          model.link === undefined ? [] : [...text(' '), ...link(model.link.label, model.link.url)],
        ),
      ];
      if (model.usage !== undefined) out.push(codeBlock(model.usage));
      return out;
    }
    case 'run_brief': {
      const { run } = model;
      const head = paragraph(
        text(
          `${run.state.emoji} ${run.state.label}${run.runTime ? ` after ${run.runTime}` : ''}: `,
        ),
        strong(run.title),
        text('.'),
        model.hasCard
          ? [...text(' '), ...link('Its status comment', model.cardUrl), ...text(' is up to date.')]
          : [],
      );
      return run.statusMessage && !model.hasCard
        ? [head, paragraph(lines(run.statusMessage))]
        : [head];
    }
    case 'run_choice':
      return [
        paragraph(text(`You have ${model.runs.length} live runs here. Which one?`)),
        bulletList(
          model.runs.map((run) => [
            paragraph(
              text(`${run.state.emoji} `),
              strong(run.title),
              text(': '),
              code(`@${o.botHandle} ${model.action} ${run.runId}`),
            ),
          ]),
        ),
      ];
    case 'factory_choice': {
      if (model.candidates.length === 0)
        return [
          paragraph(
            text('⚠️ No factory matches '),
            code(model.alias),
            text('. Check the alias and try again.'),
          ),
        ];
      return [
        paragraph(
          text('Several factories match '),
          code(model.alias),
          text('; say which one with '),
          code(`@${o.botHandle} factory <alias> <prompt>`),
          text(':'),
        ),
        bulletList(
          model.candidates.map((c) => [
            paragraph(strong(c.name), text(' '), code(c.alias ?? c.uid)),
          ]),
        ),
      ];
    }
  }
}

/** A model as one ADF document. */
export function renderJiraMessage(model: MessageModel, o: JiraRenderOptions): AdfDoc {
  return doc(renderJiraBlocks(model, o));
}
