/**
 * The Teams renderer: the neutral message model as one outgoing activity. The run's status
 * message is an Adaptive Card (1.5, Universal Actions: Stop and Cancel are `Action.Execute`
 * with the run's id), edited in place; the outcome is a message that mentions the requester
 * (`<at>` with its mention entity) with the agent's own words, the PR and the cost; the short
 * answers are Markdown messages. Pure functions of the model; every text of a person or of
 * the service is escaped, never markup.
 */
import type {
  IActionSet,
  IAdaptiveCard,
  IExecuteAction,
  IFactSet,
  IOpenUrlAction,
  ITextBlock,
} from '@microsoft/teams.cards';
import { ROUTED_WORDS } from '../../core/message/followup-routing.js';
import { capWords, reviewHeadline, typedAnswers } from '../../core/message/review-text.js';
import type { MessageModel, PersonView, RunView } from '../../core/message/message-model.js';
import { shortRunId } from '../../core/message/short-run-id.js';
import { headlineWords, outcomeWords } from '../../core/message/state-view.js';
import { formatCost, labelledUsage } from '../../core/message/usage-text.js';
import { clip } from '../../core/text.js';
import type { OutgoingActivity } from '../api/connector-client.js';
import { CARD_VERBS } from '../api/activity.js';
import { shortHelpRows } from '../../core/command/help-text.js';

export interface TeamsRenderOptions {
  /** The bot's name as a mention shows it (`agent-relay`). */
  botHandle: string;
}

export const ADAPTIVE_CARD = 'application/vnd.microsoft.card.adaptive';

/** Characters of the agent's words in one message (Teams caps a message near 28 KB). */
const AGENT_WORDS_CHARS = 6_000;
const TONE = { info: 'ℹ️', warning: '⚠️', error: '❌' } as const;
const STEP_MARK = { running: '⏳', done: '✅', failed: '❌' } as const;

/** Markdown's active characters escaped (Teams' text and TextBlocks read a Markdown subset). */
export function escapeMd(text: string): string {
  return text.replace(/([\\`*_[\]<>~])/g, '\\$1');
}

const code = (s: string) => `\`${s.replace(/`/g, "'")}\``;
const mdLink = (label: string, url: string) =>
  `[${escapeMd(label)}](${url.replace(/[()\s]/g, encodeURIComponent)})`;

function runLinks(run: RunView): { label: string; url: string }[] {
  const out: { label: string; url: string }[] = [];
  const seen = new Set<string>();
  const add = (label: string, url: string | undefined) => {
    if (url === undefined || seen.has(url) || !/^https?:\/\//i.test(url)) return;
    seen.add(url);
    out.push({ label, url });
  };
  add('Session', run.sessionLink);
  for (const l of run.links) add(l.kind === 'session' ? 'Session' : l.label, l.url);
  return out;
}

const quiet = (p: PersonView | undefined) => (p === undefined ? 'unknown' : (p.name ?? p.id));

function nextStep(run: RunView, o: TeamsRenderOptions): string | undefined {
  if (run.state.blocked)
    return `Next: answer with ${code(`@${o.botHandle} <answer>`)} in this thread to continue the run.`;
  if (run.state.success !== false) return undefined;
  const what =
    run.state.name === 'CANCELLED' ? ' to resume it, or ' : ' to retry with more guidance, or ';
  return `Next: reply with ${code(`@${o.botHandle} <message>`)}${what}${code(`@${o.botHandle} new <prompt>`)} to start over.`;
}

const block = (text: string, extra: Partial<ITextBlock> = {}): ITextBlock => ({
  type: 'TextBlock',
  text,
  wrap: true,
  ...extra,
});

/** Whether a run's card has Stop and Cancel to offer (a live run the service knows). */
const stoppable = (run: RunView) => run.runId !== '' && run.actions.includes('cancel');

/**
 * The status card. The card everyone sees has no buttons; while the run can be stopped it
 * asks Teams to refresh it (Universal Actions' `refresh`) for the requester (`userIds`, their
 * Teams id), whose client then gets, from the relay, the same card with Stop and Cancel
 * (`live: true`). Anyone may refresh it by hand; only the requester and admins get buttons.
 */
export function renderStatusCard(
  run: RunView,
  o: TeamsRenderOptions,
  options: { live?: boolean } = {},
): IAdaptiveCard {
  const body: IAdaptiveCard['body'] = [
    block(
      `${run.state.emoji} **${escapeMd(o.botHandle)}** ${headlineWords(run.state)}: **${escapeMd(run.title)}**`,
      { size: 'Medium' },
    ),
    block(
      `for ${escapeMd(quiet(run.requester))}${run.runTime === undefined ? '' : ` · ${run.runTime}`}`,
      { isSubtle: true, spacing: 'None' },
    ),
  ];
  const progress = run.progress;
  if (progress !== undefined && run.state.live) {
    if (progress.kind === 'setup')
      body.push(block(`**Setting up:** ${escapeMd(progress.events.join(', '))}`));
    else if (progress.steps.length > 0)
      body.push(
        block(
          [
            '**Now:**',
            ...progress.steps.map(
              (s) => `- ${STEP_MARK[s.state]} ${escapeMd(s.title.slice(0, 200))}`,
            ),
          ].join('\n'),
        ),
      );
  }
  const usage = labelledUsage(run, run.state.live);
  if (usage !== undefined) body.push(block(usage));
  if (run.statusMessage !== undefined && run.statusMessage.trim() !== '')
    body.push(block(escapeMd(run.statusMessage.trim()), { style: 'default', color: 'Attention' }));
  const next = nextStep(run, o);
  if (next !== undefined) body.push(block(next));
  const facts: IFactSet = {
    type: 'FactSet',
    facts: [
      { title: 'State', value: `${run.state.label} (${run.state.name})` },
      ...(run.runId === '' ? [] : [{ title: 'Run', value: shortRunId(run.runId) }]),
      {
        title: 'Settings',
        value:
          run.applied
            .filter((s) => s.key !== 'title' && s.value !== undefined)
            .map((s) => `${s.key} ${s.value}`)
            .join(' · ') || 'service defaults',
      },
    ],
  };
  body.push(facts);
  body.push(
    block(`Reply in this thread with ${code(`@${o.botHandle} <message>`)} to follow up.`, {
      isSubtle: true,
    }),
  );
  const links: IOpenUrlAction[] = runLinks(run).map((l) => ({
    type: 'Action.OpenUrl',
    title: l.label,
    url: l.url,
  }));
  const buttons: IExecuteAction[] =
    options.live === true && stoppable(run)
      ? [
          {
            type: 'Action.Execute',
            title: 'Stop',
            verb: CARD_VERBS.stop,
            data: { runId: run.runId },
          },
          {
            type: 'Action.Execute',
            title: 'Cancel',
            verb: CARD_VERBS.cancel,
            style: 'destructive',
            data: { runId: run.runId },
          },
        ]
      : [];
  const actions = [...buttons, ...links];
  if (actions.length > 0) body.push({ type: 'ActionSet', actions } satisfies IActionSet);
  const requester = run.requester?.platform === 'teams' ? run.requester.id : undefined;
  return {
    type: 'AdaptiveCard',
    version: '1.5',
    body,
    msteams: { width: 'full' },
    ...(stoppable(run) && requester !== undefined
      ? {
          refresh: {
            action: {
              type: 'Action.Execute',
              title: 'Refresh',
              verb: CARD_VERBS.refresh,
              data: { runId: run.runId },
            },
            userIds: [requester],
          },
        }
      : {}),
  };
}

/** A Teams person as a real mention (text and entity); anyone else as their name. */
function mention(person: PersonView | undefined): { text: string; entities: unknown[] } {
  if (person === undefined) return { text: 'someone', entities: [] };
  if (person.platform !== 'teams') return { text: escapeMd(quiet(person)), entities: [] };
  const at = `<at>${escapeXml(person.name ?? 'you')}</at>`;
  return {
    text: at,
    entities: [
      { type: 'mention', text: at, mentioned: { id: person.id, name: person.name ?? 'you' } },
    ],
  };
}

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function message(text: string, entities: unknown[] = []): OutgoingActivity {
  return {
    type: 'message',
    textFormat: 'markdown',
    text,
    ...(entities.length > 0 ? { entities } : {}),
  };
}

function renderOutcome(
  model: Extract<MessageModel, { type: 'run_outcome' }>,
  o: TeamsRenderOptions,
): OutgoingActivity {
  const { run } = model;
  const who = mention(run.requester);
  const lines = [
    `${who.text} ${run.state.emoji} Run ${outcomeWords(run)}: **${escapeMd(run.title)}**`,
  ];
  const words = run.agentMessage?.trim();
  // The agent's own words are Markdown: shown as it wrote them.
  if (words) lines.push(clip(words, AGENT_WORDS_CHARS));
  else if (run.statusMessage?.trim()) lines.push(`> ${escapeMd(run.statusMessage.trim())}`);
  const links = runLinks(run).filter((_, i) => i > 0 || run.sessionLink === undefined);
  // The labels say what each link is ("PR: owner/repo#7 (open)").
  if (links.length > 0) lines.push(links.map((l) => mdLink(l.label, l.url)).join(' · '));
  const usage = labelledUsage(run, false);
  if (usage !== undefined) lines.push(usage);
  const next = nextStep(run, o);
  if (next !== undefined) lines.push(next);
  return message(lines.join('\n\n'), who.entities);
}

/** A question about a run (its plan, an action, its cap), answered by typed replies in the thread. */
function renderReview(
  model: Extract<MessageModel, { type: 'review' }>,
  o: TeamsRenderOptions,
): OutgoingActivity {
  const { run, review } = model;
  const who = model.full ? { text: '', entities: [] } : mention(run.requester);
  const icon = review.kind === 'plan' ? '📋' : review.kind === 'action' ? '✋' : '💰';
  const lines = [
    `${who.text ? `${who.text} ` : ''}${icon} ${reviewHeadline(review)}: **${escapeMd(review.plan?.title ?? run.title)}**`,
  ];
  if (review.kind === 'cap') lines.push(capWords(review));
  if (review.kind === 'action' && review.action !== undefined)
    lines.push(`It wants to: ${code(review.action.what)}`);
  // The plan is the agent's own Markdown: shown as it wrote it.
  const markdown = review.plan?.markdown?.trim();
  if (markdown) lines.push(clip(markdown, AGENT_WORDS_CHARS));
  if (review.plan?.url !== undefined) lines.push(mdLink('Open the plan', review.plan.url));
  if (!model.full) lines.push(typedAnswers(review, `@${o.botHandle}`));
  return message(lines.join('\n\n'), who.entities);
}

function renderHelp(o: TeamsRenderOptions, options: readonly string[]): OutgoingActivity {
  const rows = shortHelpRows('thread', "show or set this place's defaults (admins change them)");
  const lines = [
    `**How to use @${escapeMd(o.botHandle)}**`,
    rows.map(([w, what]) => `- ${code(`@${o.botHandle} ${w}`)}: ${what}`).join('\n'),
    'In a 1:1 chat, leave out the mention. On any message: **… › Send to agent-relay**.',
  ];
  if (options.length > 0)
    lines.push(`Options may lead any prompt: ${options.map((k) => code(`${k}=…`)).join(', ')}.`);
  return message(lines.join('\n\n'));
}

/** A model as one outgoing activity. */
export function renderTeamsMessage(model: MessageModel, o: TeamsRenderOptions): OutgoingActivity {
  switch (model.type) {
    case 'run_status':
      return {
        type: 'message',
        attachments: [{ contentType: ADAPTIVE_CARD, content: renderStatusCard(model.run, o) }],
      };
    case 'run_outcome':
      return renderOutcome(model, o);
    case 'review':
      return renderReview(model, o);
    case 'followup_sent':
      return message(
        `✉️ Follow-up sent to: **${escapeMd(model.run.title)}**${model.routed === undefined ? '.' : ` (${ROUTED_WORDS[model.routed]}).`}`,
      );
    case 'run_list': {
      const where = model.scope === 'place' ? ' here' : '';
      const lines = [`**Recent runs${where}**`];
      if (model.runs.length === 0) lines.push('No runs match.');
      else
        lines.push(
          model.runs
            .map(
              (run) =>
                `- ${run.state.emoji} ${run.state.label} · ${run.sessionLink ? mdLink(run.title, run.sessionLink) : escapeMd(run.title)} · ${code(shortRunId(run.runId))} · ${escapeMd(quiet(run.requester))}${run.usage?.costUsd === undefined ? '' : ` · ${formatCost(run.usage.costUsd)}`}`,
            )
            .join('\n'),
        );
      if (model.truncated) lines.push('More runs exist: narrow the list with state=… or name=….');
      if (model.month !== undefined)
        lines.push(
          `This place has spent ${formatCost(model.month.spentUsd)} in ${model.month.name} (UTC) (approximate)`,
        );
      return message(lines.join('\n\n'));
    }
    case 'config': {
      const head = `**Defaults for** ${code(model.scope)}`;
      if (model.settings.length === 0)
        return message(`${head}\n\nNo defaults are set here; the service's defaults apply.`);
      return message(
        `${head}\n\n${model.settings
          .map(
            (s) =>
              `- ${code(s.key)} = ${code(s.value)}${model.changed.includes(s.key) ? ' ✏️' : ''}`,
          )
          .join('\n')}`,
      );
    }
    case 'help':
      return renderHelp(o, model.options);
    case 'notice': {
      const who = model.mention === undefined ? undefined : mention(model.mention);
      const parts = [
        `${TONE[model.tone]} ${who ? `${who.text} ` : ''}${escapeMd(model.text)}${model.link ? ` ${mdLink(model.link.label, model.link.url)}` : ''}`,
      ];
      if (model.usage !== undefined) parts.push(code(model.usage));
      return message(parts.join('\n\n'), who?.entities ?? []);
    }
    case 'run_brief': {
      const { run } = model;
      const head = `${run.state.emoji} ${run.state.label}${run.runTime ? ` after ${run.runTime}` : ''}: **${escapeMd(run.title)}**.${model.hasCard ? ' Its status card is up to date.' : ''}`;
      return message(
        run.statusMessage && !model.hasCard ? `${head}\n\n${escapeMd(run.statusMessage)}` : head,
      );
    }
    case 'run_choice':
      return message(
        [
          `You have ${model.runs.length} live runs here. Which one?`,
          model.runs
            .map(
              (run) =>
                `- ${run.state.emoji} **${escapeMd(run.title)}**: ${code(`@${o.botHandle} ${model.action} ${run.runId}`)}`,
            )
            .join('\n'),
        ].join('\n\n'),
      );
    case 'factory_choice':
      if (model.candidates.length === 0)
        return message(
          `⚠️ No factory matches ${code(model.alias)}. Check the alias and try again.`,
        );
      return message(
        [
          `Several factories match ${code(model.alias)}; say which one with ${code(`@${o.botHandle} factory <alias> <prompt>`)}:`,
          model.candidates
            .map((c) => `- **${escapeMd(c.name)}** ${code(c.alias ?? c.uid)}`)
            .join('\n'),
        ].join('\n\n'),
      );
  }
}
