/**
 * A place's monthly budget (`config budget=<USD>`, docs/usage.md): the month's spend is the
 * sum of the last reported cost of the runs started there since the calendar month began
 * (UTC); live runs count what they reported so far. A budget is a hard limit: new runs and
 * follow-ups alike are refused before anything is sent once the spend has reached it, and
 * under it work goes one run at a time, each holding the budget's reservation until its cost
 * is known (budget-reservation.ts), so the spend passes the budget by at most one run.
 * A person's own budget (`config user=@<person> budget=…`) is held the same way.
 */
import { costInWords, formatUsd } from '../../core/message/usage-text.js';
import { notice } from '../../core/message/render-model.js';
import type { MessageModel, PersonView } from '../../core/message/message-model.js';
import type { RunRecord } from '../../core/ports/index.js';
import {
  monthKeyUtc,
  monthNameUtc,
  monthStartUtc,
  nextMonthStartUtc,
  placeThreadPrefix,
} from '../../core/place.js';
import { handleOn, type BudgetWords, type RunsDeps } from '../runs-deps.js';
import {
  budgetsOf,
  holdUntilSettled,
  releaseHolds,
  runOfUnknownCost,
  spentOf,
  takeHolds,
  type BudgetScope,
  type SpentScope,
} from './budget-reservation.js';
import { enqueue, replyWith, type Effects, type TriggerJob } from './trigger-job.js';

/** The share of the budget at which the place is told, once a month. */
export const BUDGET_NOTICE_SHARE = 0.8;

export interface PlaceBudget {
  scope: string;
  budgetUsd: number;
  spentUsd: number;
}

/** The place's budget and its month's spend; undefined when it has no budget. */
export async function placeBudget(
  deps: Pick<RunsDeps, 'store'>,
  scope: string,
  now: number,
): Promise<PlaceBudget | undefined> {
  const setting = (await deps.store.settings.list(scope)).find((s) => s.key === 'budget');
  const budgetUsd = setting === undefined ? NaN : Number(setting.value);
  if (!Number.isFinite(budgetUsd) || budgetUsd < 0) return undefined;
  const spentUsd = await deps.store.runs.spendSince(placeThreadPrefix(scope), monthStartUtc(now));
  return { scope, budgetUsd, spentUsd };
}

type PlaceKind = 'channel' | 'repository' | 'team' | 'project';
/**
 * The platforms whose places have budgets: a Slack channel, a GitHub repository, a Linear team,
 * a Jira project.
 */
export type BudgetPlatform = 'slack' | 'github' | 'linear' | 'jira' | 'teams';

function platformOf(job: TriggerJob): BudgetPlatform {
  return budgetPlatform(job.trigger.platform);
}

/** The wording a platform's places get (anything unknown reads as Slack's). */
export function budgetPlatform(platform: string): BudgetPlatform {
  return platform === 'github' ||
    platform === 'linear' ||
    platform === 'jira' ||
    platform === 'teams'
    ? platform
    : 'slack';
}

/** What a place is called on its platform. */
export function placeKind(platform: BudgetPlatform): PlaceKind {
  if (platform === 'jira') return 'project';
  return platform === 'github' ? 'repository' : platform === 'linear' ? 'team' : 'channel';
}

function placeWord(job: TriggerJob): PlaceKind {
  return placeKind(platformOf(job));
}

/** Who may raise the budget of a place. */
export function whoRaises(platform: BudgetPlatform): string {
  if (platform === 'linear') return "It is raised from any of the team's agent sessions:";
  if (platform === 'jira') return 'An admin of the Jira project can raise it:';
  return platform === 'github'
    ? 'An admin of the repository can raise it:'
    : 'An admin of agent-relay can raise it:';
}

/** The words that raise it, shown as code (in a Linear agent session, the words alone). */
export function raiseUsage(platform: BudgetPlatform, words: BudgetWords): string {
  if (platform === 'linear') return 'config budget=<US dollars>';
  const invocation =
    platform === 'github' || platform === 'jira' || platform === 'teams'
      ? `@${handleOn(words, platform)}`
      : words.commandWord;
  return `${invocation} config budget=<US dollars>`;
}

function spentWords(budget: Pick<PlaceBudget, 'spentUsd' | 'budgetUsd'>, now: number): string {
  return `${costInWords(budget.spentUsd)} of its ${formatUsd(budget.budgetUsd)} budget for ${monthNameUtc(now)} (UTC)`;
}

/** The reply to a new run or a follow-up asked for in a place that has spent its budget. */
export function overBudgetNotice(input: {
  platform: BudgetPlatform;
  budget: Pick<PlaceBudget, 'spentUsd' | 'budgetUsd'>;
  now: number;
  words: BudgetWords;
  mention?: PersonView;
}): MessageModel {
  const where = placeKind(input.platform);
  return notice(
    'warning',
    `This ${where} has spent ${spentWords(input.budget, input.now)}, so nothing more is sent to the agent here (new runs, or follow-ups to runs already here) until the month ends or the budget is raised. ${whoRaises(input.platform)}`,
    raiseUsage(input.platform, input.words),
    input.mention,
  );
}

/**
 * Whether a new run may start in the trigger's place: undefined when it may (after queuing the
 * month's 80 % notice, once, when the spend has reached it), else the refusal to reply with.
 * A run let through holds the reservation of each budget it counts against (the requester's,
 * the place's) until its cost is known (budget-reservation.ts).
 */
export async function checkBudget(deps: RunsDeps, job: TriggerJob): Promise<Effects | undefined> {
  const scopes = await budgetsOf(deps, job, {
    threadKey: job.threadKey,
    placeScope: job.trigger.settingsScope,
    requesterId: job.trigger.actor.id,
  });
  if (scopes.length === 0) return undefined;
  // An earlier attempt of this request passed the check (it precedes the "Starting…"
  // message): a retry goes on, so a run that may exist is never refused; it holds again
  // what no one else took meanwhile.
  if ((await deps.store.startMessages.get(job.requestId)) !== undefined) {
    const taken = [];
    for (const scope of scopes)
      if ((await takeHolds(deps, job, [scope])) === undefined) taken.push(scope);
    holdUntilSettled(deps, job, taken);
    return undefined;
  }
  return admit(deps, job, scopes, { kind: 'start', requesterId: job.trigger.actor.id });
}

/**
 * Whether a follow-up to `run` may be sent: the same rule as a new run (budget-reservation.ts),
 * against the place's budget and the budget of the person whose run it is (its cost is
 * theirs); the run itself may be the one whose cost is not known yet.
 */
export async function checkFollowupBudget(
  deps: RunsDeps,
  job: TriggerJob,
  run: Pick<RunRecord, 'runId' | 'threadKey' | 'requester'>,
): Promise<Effects | undefined> {
  const scopes = await budgetsOf(deps, job, {
    threadKey: run.threadKey,
    placeScope: job.trigger.settingsScope,
    requesterId: run.requester.id,
  });
  if (scopes.length === 0) return undefined;
  return admit(deps, job, scopes, {
    kind: 'followup',
    requesterId: run.requester.id,
    runId: run.runId,
  });
}

interface Work {
  kind: 'start' | 'followup';
  /** Whose run it is (a person's budget is theirs). */
  requesterId: string;
  /** The run a follow-up goes to. */
  runId?: string;
}

async function admit(
  deps: RunsDeps,
  job: TriggerJob,
  scopes: BudgetScope[],
  work: Work,
): Promise<Effects | undefined> {
  const busyHold = await takeHolds(deps, job, scopes);
  if (busyHold !== undefined) return refuse(deps, job, busyNotice(job, busyHold, work));
  const now = deps.clock.now();
  let place: SpentScope | undefined;
  for (const scope of scopes) {
    const spent = await spentOf(deps, scope, now);
    if (spent.spentUsd >= spent.budgetUsd) {
      await releaseHolds(deps, job, scopes);
      job.log.info(
        {
          scope: spent.scope,
          spentUsd: spent.spentUsd,
          budgetUsd: spent.budgetUsd,
          work: work.kind,
        },
        spent.kind === 'person'
          ? 'refused: the person reached their budget'
          : 'refused: the place reached its budget',
      );
      return refuse(
        deps,
        job,
        spent.kind === 'person'
          ? personOverBudgetNotice(deps, job, spent, now, work)
          : placeOverBudgetNotice(deps, job, spent, now),
      );
    }
    const running = await runOfUnknownCost(deps, scope, now, work.runId);
    if (running !== undefined) {
      await releaseHolds(deps, job, scopes);
      job.log.info(
        { scope: spent.scope, runningRunId: running.runId, work: work.kind },
        'refused: a run of unknown cost holds the budget',
      );
      return refuse(deps, job, busyNotice(job, spent, work, running.runId));
    }
    if (spent.kind === 'place') place = spent;
  }
  holdUntilSettled(deps, job, scopes);
  if (place !== undefined && place.spentUsd >= place.budgetUsd * BUDGET_NOTICE_SHARE) {
    await noticeOnce(deps, job, place, now);
  }
  return undefined;
}

function refuse(deps: RunsDeps, job: TriggerJob, message: MessageModel): Effects {
  deps.metrics.inc('budget_refusals', { platform: job.trigger.platform });
  return replyWith(job, message);
}

function mentionOf(job: TriggerJob): PersonView | undefined {
  return job.trigger.platform === 'github' ? job.actor : undefined;
}

function placeOverBudgetNotice(
  deps: RunsDeps,
  job: TriggerJob,
  budget: PlaceBudget,
  now: number,
): MessageModel {
  const mention = mentionOf(job);
  return overBudgetNotice({
    platform: platformOf(job),
    budget,
    now,
    words: deps.options,
    ...(mention ? { mention } : {}),
  });
}

/** Someone's own budget is spent: nothing more of their runs is sent (new or follow-up). */
function personOverBudgetNotice(
  deps: RunsDeps,
  job: TriggerJob,
  budget: SpentScope,
  now: number,
  work: Work,
): MessageModel {
  const platform = platformOf(job);
  const own = work.requesterId === job.trigger.actor.id;
  const spent = spentWords(budget, now).replace('of its', own ? 'of your' : 'of their');
  const text = own
    ? `Your runs have spent ${spent}, so nothing more of yours is sent to the agent (new runs, or follow-ups to your runs) until the month ends or your budget is raised.`
    : `The runs of the person who started this one have spent ${spent}, so nothing more of theirs is sent to the agent (new runs, or follow-ups to their runs) until the month ends or their budget is raised.`;
  return notice(
    'warning',
    `${text} ${platform === 'github' ? 'An admin of this repository can raise it:' : platform === 'jira' ? 'An admin of this project can raise it:' : 'An admin of agent-relay can raise it:'}`,
    `${platform === 'github' || platform === 'jira' ? `@${handleOn(deps.options, platform)}` : deps.options.commandWord} config user=@<${own ? 'you' : 'them'}> budget=<US dollars>`,
    job.actor,
  );
}

/** Another run (or request) holds the budget's reservation: its cost is not known yet. */
function busyNotice(
  job: TriggerJob,
  budget: BudgetScope,
  work: Work,
  runningRunId?: string,
): MessageModel {
  const whose =
    budget.kind === 'person'
      ? work.requesterId === job.trigger.actor.id
        ? 'You have a budget'
        : 'The person who started this run has a budget'
      : `This ${placeWord(job)} has a budget`;
  const other =
    runningRunId === undefined
      ? 'another request is starting work under it right now'
      : `run ${runningRunId} is still working under it (its cost is not known yet)`;
  const what = work.kind === 'start' ? 'No new run was started' : 'Your message was not sent';
  return notice(
    'warning',
    `${whose}, and ${other}. Under a budget one run works at a time, until its cost is known, so the spend passes the budget by at most one run. ${what}: try again once that run has ended (or waits for input).`,
    undefined,
    mentionOf(job),
  );
}

/**
 * The month's one budget notice of a place: whoever takes this lease first (a request starting
 * a run there, or the tracker recording a cost) says it. `holder` must be new for each attempt.
 */
export async function takeNoticeLease(
  deps: Pick<RunsDeps, 'store'>,
  scope: string,
  holder: string,
  now: number,
): Promise<boolean> {
  const name = `budget-notice:${scope}:${monthKeyUtc(now)}`;
  const until = nextMonthStartUtc(now) + 24 * 3_600_000;
  return (await deps.store.leases.acquire(name, holder, now, until - now)) !== undefined;
}

/**
 * The notice a place gets once a month when its spend reaches 80 % of its budget, or, when a
 * run's reported cost took it straight there, its whole budget.
 */
export function budgetNotice(
  platform: BudgetPlatform,
  budget: Pick<PlaceBudget, 'spentUsd' | 'budgetUsd'>,
  now: number,
  words: BudgetWords,
): MessageModel {
  const where = placeKind(platform);
  const share = budget.budgetUsd > 0 ? Math.floor((budget.spentUsd / budget.budgetUsd) * 100) : 100;
  const next =
    budget.spentUsd >= budget.budgetUsd
      ? 'Nothing more is sent to the agent here (new runs, or follow-ups) until the month ends or the budget is raised.'
      : 'New runs and follow-ups are refused here once the spend reaches the budget.';
  return notice(
    'info',
    `This ${where} has spent ${spentWords(budget, now)} (${share} %). ${next} ${whoRaises(platform)}`,
    raiseUsage(platform, words),
  );
}

/** The month's 80 % notice in the place, once: the first request to take its lease says it. */
async function noticeOnce(
  deps: RunsDeps,
  job: TriggerJob,
  budget: PlaceBudget,
  now: number,
): Promise<void> {
  if (!(await takeNoticeLease(deps, budget.scope, job.requestId, now))) return;
  const message = budgetNotice(platformOf(job), budget, now, deps.options);
  await deps.store.transaction((tx) =>
    enqueue({ kind: 'post', destination: { threadKey: job.threadKey }, message })(tx, now),
  );
  deps.notifyOutbox(job.trigger.platform);
}
