/**
 * The one source of truth for the grammar's documentation: the help message on both
 * platforms and the "right form" of every parse error come from here.
 */
import type { OptionKey } from '../message/message-model.js';
import { RUN_MODES } from './run-modes.js';

/** Every run option key, in the order help shows them (`steer` is a channel setting only). */
export const OPTION_KEYS: readonly OptionKey[] = [
  'model',
  'env',
  'skill',
  'name',
  'title',
  'mode',
  'factory',
  'cap',
];

export interface UsageLine {
  /** The words after the invocation, e.g. `status [run_id]`. */
  form: string;
  meaning: string;
}

/** Forms a command can take, keyed so that errors can show the matching one. */
export type UsageTopic =
  | 'prompt'
  | 'new'
  | 'now'
  | 'status'
  | 'cancel'
  | 'stop'
  | 'approve'
  | 'changes'
  | 'continue'
  | 'list'
  | 'factory'
  | 'config'
  | 'help';

export const USAGE_BY_TOPIC: Record<UsageTopic, UsageLine> = {
  prompt: {
    form: '[options] <prompt>',
    meaning: "start a run here, or follow up on this thread's run",
  },
  new: { form: 'new [options] <prompt>', meaning: 'start a fresh run even if the thread has one' },
  now: {
    form: 'now [options] <prompt>',
    meaning: 'start the work at once, without a plan first (where `mode=plan` is the default)',
  },
  status: { form: 'status [run_id]', meaning: "show the run's state, links and settings" },
  cancel: { form: 'cancel [run_id]', meaning: "cancel this thread's run (or the one named)" },
  stop: {
    form: 'stop [run_id]',
    meaning: 'stop what the agent is doing now; reply in the thread to continue',
  },
  approve: {
    form: 'approve [run_id]',
    meaning: 'approve the plan waiting here and have the agent carry it out',
  },
  changes: {
    form: 'changes <what to change>',
    meaning: 'ask for a revised plan (a plain reply to a plan does the same)',
  },
  continue: {
    form: 'continue [run_id]',
    meaning: 'let a run stopped at its spending cap go on for another cap',
  },
  list: {
    form: 'list [state=A,B] [name=…] [mine]',
    meaning: 'recent runs, with filters',
  },
  factory: {
    form: 'factory <alias> [options] <prompt>  (or @<alias> <prompt>)',
    meaning: "hand the work to a factory's foreman",
  },
  config: {
    form: 'config [key=value …]  (key= or key=- unsets)',
    meaning: 'show or set the defaults of this channel / repository',
  },
  help: { form: 'help', meaning: 'this help' },
};

export const USAGE: readonly UsageLine[] = Object.values(USAGE_BY_TOPIC);

/**
 * The short help of the platforms addressed by a mention (GitHub, Jira, Teams): the words
 * after the mention and what they do, where a run belongs to a `thread` (or an `issue`), and
 * what `config` changes there.
 */
export function shortHelpRows(where: 'thread' | 'issue', config: string): [string, string][] {
  return [
    ['<prompt>', `start a run here, or follow up on this ${where}'s run`],
    ['new <prompt>', `start a fresh run even if this ${where} has one`],
    ['status [run_id]', "show the run's state, links and settings"],
    ['stop [run_id]', 'stop what the agent is doing now; reply to continue'],
    ['cancel [run_id]', 'cancel the run'],
    ['list [state=…] [name=…] [mine]', 'recent runs'],
    ['factory <alias> <prompt>', "hand the work to a factory's foreman"],
    ['config [key=value …]', config],
    ['help', 'this help'],
  ];
}

export const OPTION_DOCS: Record<OptionKey, UsageLine> = {
  model: { form: 'model=<model id>', meaning: 'the model the agent uses' },
  env: { form: 'env=<environment id>', meaning: 'the environment the agent runs in' },
  skill: {
    form: 'skill=<owner/repo:skill-name | owner/repo:path/to/SKILL.md>',
    meaning: 'a skill to run',
  },
  name: { form: 'name=<config name>', meaning: 'the agent config name (also a list filter)' },
  title: { form: 'title="<title>"', meaning: 'the run title (derived from the prompt if absent)' },
  mode: { form: `mode=${RUN_MODES.join('|')}`, meaning: 'just do it, plan first, or orchestrate' },
  factory: { form: 'factory=<alias>', meaning: 'dispatch to this factory' },
  cap: {
    form: 'cap=<US dollars>',
    meaning: 'the most one run may spend before it stops and its requester is asked to go on',
  },
  steer: {
    form: 'steer=anyone|requester',
    meaning: 'a channel setting: who may follow up on a run (default anyone)',
  },
  budget: {
    form: 'budget=<US dollars>',
    meaning: 'a channel/repository setting: the monthly budget (calendar month, UTC)',
  },
  approve: {
    form: 'approve=requester|admins|anyone',
    meaning:
      "a place setting: who may approve a plan or a capped run's going on (default requester, and admins)",
  },
};

/** How to write options: shown with option errors. */
export const OPTIONS_FORM =
  'key=value tokens before the prompt, or [key=value, key="quoted value"]; keys: ' +
  OPTION_KEYS.join(', ');

/** The usage line of a topic with this platform's invocation, e.g. `/agent status [run_id]`. */
export function usageFor(topic: UsageTopic, invocation: string): string {
  return `${invocation} ${USAGE_BY_TOPIC[topic].form}`;
}
