/**
 * Thin constructors of the neutral messages (message-model.ts) other than a run's view, which
 * run-view.ts builds. The Slack and GitHub renderers turn these into Block Kit and Markdown.
 */
import { OPTION_KEYS } from '../command/help-text.js';
import type { MessageModel, OptionKey, PersonView, RunView } from './message-model.js';

type Model<T extends MessageModel['type']> = Extract<MessageModel, { type: T }>;

export function runStatusMessage(run: RunView): Model<'run_status'> {
  return { type: 'run_status', run };
}

export function runOutcomeMessage(
  run: RunView,
  about: { cardUrl?: string; requestUrl?: string } = {},
): Model<'run_outcome'> {
  const message: Model<'run_outcome'> = { type: 'run_outcome', run };
  if (about.cardUrl !== undefined) message.cardUrl = about.cardUrl;
  if (about.requestUrl !== undefined) message.requestUrl = about.requestUrl;
  return message;
}

export function followupSentMessage(run: RunView, message: string): Model<'followup_sent'> {
  return { type: 'followup_sent', run, message };
}

export function runBriefMessage(run: RunView, card?: { url?: string }): Model<'run_brief'> {
  const message: Model<'run_brief'> = { type: 'run_brief', run, hasCard: card !== undefined };
  if (card?.url !== undefined) message.cardUrl = card.url;
  return message;
}

export function runChoiceMessage(
  action: Model<'run_choice'>['action'],
  runs: RunView[],
): Model<'run_choice'> {
  return { type: 'run_choice', action, runs };
}

export function listMessage(
  runs: RunView[],
  filters: Model<'run_list'>['filters'] = {},
  truncated = false,
  scope?: Model<'run_list'>['scope'],
  asker?: PersonView,
): Model<'run_list'> {
  return {
    type: 'run_list',
    runs,
    filters,
    truncated,
    ...(scope ? { scope } : {}),
    ...(asker ? { asker } : {}),
  };
}

export function configMessage(
  scope: string,
  settings: Model<'config'>['settings'],
  changed: OptionKey[] = [],
): Model<'config'> {
  const order = (k: OptionKey) => OPTION_KEYS.indexOf(k);
  return {
    type: 'config',
    scope,
    settings: [...settings].sort((a, b) => order(a.key) - order(b.key)),
    changed,
  };
}

export function helpMessage(invocation: string): Model<'help'> {
  return { type: 'help', invocation, options: [...OPTION_KEYS] };
}

export function notice(
  tone: Model<'notice'>['tone'],
  text: string,
  usage?: string,
  mention?: PersonView,
): Model<'notice'> {
  const message: Model<'notice'> = { type: 'notice', tone, text };
  if (usage !== undefined) message.usage = usage;
  if (mention !== undefined) message.mention = mention;
  return message;
}

type FactoryLike = { uid: string; name: string; alias?: string | null };
const factoryView = ({ uid, name, alias }: FactoryLike) =>
  alias ? { uid, name, alias } : { uid, name };

export function factoryChoice(
  alias: string,
  candidates: FactoryLike[],
  available?: FactoryLike[],
): Model<'factory_choice'> {
  const message: Model<'factory_choice'> = {
    type: 'factory_choice',
    alias,
    candidates: candidates.map(factoryView),
  };
  if (candidates.length === 0 && available !== undefined) {
    message.available = available.map(factoryView);
  }
  return message;
}
