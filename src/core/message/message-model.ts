/**
 * The neutral message model (docs/usage.md, "What people see"). The core builds these from
 * runs and outcomes; `slack/render-*.ts` turns them into Block Kit and `github/render-*.ts`
 * into Markdown. Nothing here knows a platform's markup: text fields are plain text, and each
 * renderer escapes them for its platform.
 */

import type { ProgressView } from './progress.js';
export type { ProgressView, StepView } from './progress.js';

/** Where a follow-up went: into the running agent, queued, or a resumed (new) execution. */
export type FollowupRouting = 'delivered' | 'queued' | 'resumed';

/**
 * Where an applied setting came from: inline option > the person's own default (Slack App
 * Home) > channel/repo default > service.
 */
/** `repository`: an environment proposed because its repositories include the request's. */
export type SettingSource = 'inline' | 'personal' | 'default' | 'service' | 'repository';

/**
 * Run options (`cap`: the most one run may spend, in US dollars, before it is stopped and
 * its requester asked), and `steer` (a channel setting only: who may follow up on a run there,
 * `anyone` or the `requester`), `budget` (a channel/repository setting only: its monthly
 * budget in US dollars) and `approve` (a place setting only: who may approve a plan or a
 * capped run's going on, `requester`, `admins` or `anyone`).
 */
export type OptionKey =
  | 'model'
  | 'env'
  | 'skill'
  | 'name'
  | 'title'
  | 'mode'
  | 'factory'
  | 'cap'
  | 'steer'
  | 'budget'
  | 'approve';

export interface AppliedSetting {
  key: OptionKey;
  /** Absent when the service chose (source 'service'). */
  value?: string;
  source: SettingSource;
  /** A word about the choice (several environments matched, so none was guessed). */
  note?: string;
}

export interface StateView {
  /** The service's state string, as-is (unknown states are shown as they come). */
  name: string;
  /** A short human label: "Queued", "Running", "Succeeded", … */
  label: string;
  /** A unicode emoji (Slack renderers may map it to a :shortcode:). */
  emoji: string;
  live: boolean;
  ended: boolean;
  blocked: boolean;
  /** SUCCEEDED (true), FAILED/ERROR/CANCELLED (false), otherwise undefined. */
  success?: boolean;
}

export interface LinkView {
  kind: 'session' | 'pull_request' | 'plan' | 'reference' | 'file' | 'screenshot' | 'run';
  label: string;
  url?: string;
  /** A pull request's branch, when the service names it. */
  branch?: string;
}

export interface PersonView {
  platform: 'slack' | 'github' | 'linear' | 'jira' | 'teams';
  id: string;
  name?: string;
}

/**
 * A question put to people about a run, bound to one version: its plan to approve (or
 * change, or cancel), or its going on past its spending cap (core/ports ReviewRecord).
 */
export interface ReviewView {
  kind: 'plan' | 'cap' | 'action';
  /** An action: what the run waits to have approved ("Run command: git push"). */
  action?: { what: string };
  /**
   * The run waiting is a sub-run the thread's run started (an orchestration child): the
   * answers go to it, by its id, and its session is where else it can be answered.
   */
  subRun?: { runId: string; sessionLink?: string; says?: string };
  version: number;
  /** A plan: its title, its Markdown as the agent wrote it (bounded) and its link. */
  plan?: { title?: string; markdown?: string; url?: string };
  /** A cap: the limit the run reached, what it spent, and how much a Continue adds. */
  cap?: { limitUsd: number; stepUsd: number; spentUsd?: number };
}

export interface RunView {
  runId: string;
  title: string;
  state: StateView;
  requester?: PersonView;
  applied: AppliedSetting[];
  factory?: { alias?: string; name?: string };
  sessionLink?: string;
  links: LinkView[];
  /** Human duration, e.g. "4m 12s". */
  runTime?: string;
  /**
   * What the run used so far, as the service reported it (approximate dollars, tokens); a
   * figure not reported is absent, never 0 (`usage-text.ts` words it).
   */
  usage?: { costUsd?: number; tokens?: number };
  /** The service's status_message (shown on failure and BLOCKED). */
  statusMessage?: string;
  /** Actions a person may take now. */
  actions: ('cancel' | 'status')[];
  createdAt?: string;
  updatedAt?: string;
  /** The last change, relative to when the view was built: "5 minutes ago". */
  updatedAgo?: string;
  /** While it runs: what the agent is doing now (its last steps, or set-up so far). */
  progress?: ProgressView;
  /** Once it ended or is BLOCKED: the agent's own final words (Markdown, bounded). */
  agentMessage?: string;
  /** The question it waits on people for, when its card shows it (a plan, on GitHub). */
  review?: ReviewView;
}

export type MessageModel =
  /** The one status message of a run, edited in place. */
  | { type: 'run_status'; run: RunView }
  /**
   * A new reply when a run ends or becomes BLOCKED: one line that mentions the requester and
   * points at the status message (the card), which holds the detail. Never a copy of it.
   */
  | {
      type: 'run_outcome';
      run: RunView;
      /** The card's address, when the platform gave one (GitHub comments). */
      cardUrl?: string;
      /** The message this outcome answers (the request, or the follow-up that resumed it). */
      requestUrl?: string;
    }
  /**
   * A question about a run for people to answer (its plan, its cap), posted when it is put,
   * with its answers bound to `review.version`. `full`: the whole plan, for one person who
   * asked to see it (no answers on it).
   */
  | { type: 'review'; run: RunView; review: ReviewView; full?: boolean; cardUrl?: string }
  /** Follow-up accepted (a short confirmation where a reaction is not possible). */
  | {
      type: 'followup_sent';
      run: RunView;
      message: string;
      /** Where the service routed it, when it said (the follow-up's `outcome`). */
      routed?: FollowupRouting;
    }
  /** `list`: recent runs with the filters that applied. */
  | {
      type: 'run_list';
      runs: RunView[];
      filters: { state?: string[]; name?: string; mine?: boolean };
      truncated: boolean;
      /** Whose runs: this place's, the asker's from every place, or every run (an admin). */
      scope?: 'place' | 'asker' | 'admin' | 'workspace';
      /** Who asked: a list names the other requesters without notifying them. */
      asker?: PersonView;
      /**
       * A place's list: what the place spent this calendar month (UTC), the sum of its runs'
       * reported costs (approximate), and its budget when it has one.
       */
      month?: { name: string; spentUsd: number; budgetUsd?: number };
    }
  /** `config`: the defaults of this channel/repo. */
  | {
      type: 'config';
      scope: string;
      settings: { key: OptionKey; value: string; updatedBy?: string }[];
      changed: OptionKey[];
    }
  /** `help`: usage, with the command word of this platform (`/agent`, `@agent-relay`). */
  | { type: 'help'; invocation: string; options: OptionKey[] }
  /** Plain words: errors, refusals, "the service is down, retrying", "already ended". */
  | {
      type: 'notice';
      tone: 'info' | 'warning' | 'error';
      text: string;
      /** The right form of a command, shown as code. */
      usage?: string;
      /** Mention this person (GitHub refusals, Slack errors in a thread). */
      mention?: PersonView;
      /** One link after the words (a session to open, a page to authorize a provider). */
      link?: { label: string; url: string };
      /**
       * The words end what the person asked for (Stop's confirmation): a platform with turns
       * (Linear's agent sessions) shows them as the turn's final answer.
       */
      closing?: boolean;
    }
  /**
   * `status`: a short answer about a run whose status message was just refreshed (`cardUrl`
   * points at it when the platform gave a link), or, for a run with no status message of
   * ours, its state and links in one line. Never a second status message.
   */
  | { type: 'run_brief'; run: RunView; hasCard: boolean; cardUrl?: string }
  /** `status` / `cancel` without a run id and several candidates: the asker picks one. */
  | { type: 'run_choice'; action: 'status' | 'cancel'; runs: RunView[] }
  /** Factory alias resolved to zero or several factories. */
  | {
      type: 'factory_choice';
      alias: string;
      candidates: { uid: string; name: string; alias?: string }[];
      /** No candidate: the factories that exist, so the person can pick a real alias. */
      available?: { uid: string; name: string; alias?: string }[];
    };

/** Reactions the core asks for; each notifier maps them to its platform's names. */
export type ReactionName =
  'seen' | 'accepted' | 'cancel_requested' | 'succeeded' | 'failed' | 'blocked' | 'cancelled';
