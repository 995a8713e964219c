/**
 * A place's monthly budget (`config budget=<USD>`, docs/usage.md): the month's spend is the
 * sum of the last reported cost of the runs started there since the calendar month began
 * (UTC); live runs count what they reported so far. A new run is refused before anything is
 * sent when the spend has reached the budget. Follow-ups are never checked.
 *
 * The rule for racing starts: from 80 % of the budget on, a run starts only under the place's
 * start hold, a lease shared by every replica and taken in one statement, held by the request
 * for `BUDGET_HOLD_MS`. Of two triggers racing near the budget, one takes the hold and starts,
 * the other is refused; so near the limit at most one run whose cost is not yet known can
 * take the place over its budget.
 */
import { costInWords, formatUsd } from '../../core/message/usage-text.js';
import { notice } from '../../core/message/render-model.js';
import type { MessageModel, PersonView } from '../../core/message/message-model.js';
import {
  personScope,
  monthKeyUtc,
  monthNameUtc,
  monthStartUtc,
  nextMonthStartUtc,
  placeThreadPrefix,
} from '../../core/place.js';
import type { RunsDeps } from '../runs-deps.js';
import { enqueue, replyWith, type Effects, type TriggerJob } from './trigger-job.js';

/** The share of the budget at which the place is told, once a month, and starts one at a time. */
export const BUDGET_NOTICE_SHARE = 0.8;
/** How long a start near the budget holds the place against other starts. */
export const BUDGET_HOLD_MS = 2 * 60_000;

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
export type BudgetPlatform = 'slack' | 'github' | 'linear' | 'jira';

function platformOf(job: TriggerJob): BudgetPlatform {
  return budgetPlatform(job.trigger.platform);
}

/** The wording a platform's places get (anything unknown reads as Slack's). */
export function budgetPlatform(platform: string): BudgetPlatform {
  return platform === 'github' || platform === 'linear' || platform === 'jira' ? platform : 'slack';
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
export function raiseUsage(
  platform: BudgetPlatform,
  words: { botHandle: string; commandWord: string },
): string {
  if (platform === 'linear') return 'config budget=<US dollars>';
  const invocation =
    platform === 'github' || platform === 'jira' ? `@${words.botHandle}` : words.commandWord;
  return `${invocation} config budget=<US dollars>`;
}

function spentWords(budget: Pick<PlaceBudget, 'spentUsd' | 'budgetUsd'>, now: number): string {
  return `${costInWords(budget.spentUsd)} of its ${formatUsd(budget.budgetUsd)} budget for ${monthNameUtc(now)} (UTC)`;
}

/** The reply to a new run asked for in a place that has spent its budget. */
export function overBudgetNotice(input: {
  platform: BudgetPlatform;
  budget: Pick<PlaceBudget, 'spentUsd' | 'budgetUsd'>;
  now: number;
  words: { botHandle: string; commandWord: string };
  mention?: PersonView;
}): MessageModel {
  const where = placeKind(input.platform);
  return notice(
    'warning',
    `This ${where} has spent ${spentWords(input.budget, input.now)}, so no new run starts here until the month ends or the budget is raised. Follow-ups to runs already here still go through. ${whoRaises(input.platform)}`,
    raiseUsage(input.platform, input.words),
    input.mention,
  );
}

/**
 * Whether a new run may start in the trigger's place: undefined when it may (after queuing the
 * month's 80 % notice, once, when the spend has reached it), else the refusal to reply with.
 */
export async function checkBudget(deps: RunsDeps, job: TriggerJob): Promise<Effects | undefined> {
  // An earlier attempt of this request passed the check (it precedes the "Starting…"
  // message): a retry goes on, so a run that may exist is never refused.
  if ((await deps.store.startMessages.get(job.requestId)) !== undefined) return undefined;
  const now = deps.clock.now();
  const personal = await personOverBudget(deps, job, now);
  if (personal) return personal;
  const scope = job.trigger.settingsScope;
  const budget = await placeBudget(deps, scope, now);
  if (budget === undefined) return undefined;
  const where = placeWord(job);
  const mention = job.trigger.platform === 'github' ? job.actor : undefined;
  if (budget.spentUsd >= budget.budgetUsd) {
    job.log.info({ ...budget }, 'run refused: the place reached its budget');
    deps.metrics.inc('budget_refusals', { platform: job.trigger.platform });
    return replyWith(
      job,
      overBudgetNotice({
        platform: platformOf(job),
        budget,
        now,
        words: deps.options,
        ...(mention ? { mention } : {}),
      }),
    );
  }
  if (budget.spentUsd < budget.budgetUsd * BUDGET_NOTICE_SHARE) return undefined;
  const held = await deps.store.leases.acquire(
    `budget-start:${scope}`,
    job.requestId,
    now,
    BUDGET_HOLD_MS,
  );
  if (held === undefined) {
    job.log.info({ ...budget }, 'run refused: another run is starting near the budget');
    deps.metrics.inc('budget_refusals', { platform: job.trigger.platform });
    return replyWith(
      job,
      notice(
        'warning',
        `This ${where} is close to its budget (${spentWords(budget, now)}) and another run has just started here. Near the budget one run starts at a time, so the spend passes the budget by at most one run; try again in a few minutes.`,
        undefined,
        mention,
      ),
    );
  }
  await noticeOnce(deps, job, budget, now);
  return undefined;
}

/**
 * A person's own budget (`config user=@<person> budget=…`): their runs started this month in
 * its scope (a Slack workspace, a GitHub repository), against it. Checked without the
 * place's start hold: a person rarely races themselves.
 */
async function personOverBudget(
  deps: RunsDeps,
  job: TriggerJob,
  now: number,
): Promise<Effects | undefined> {
  const person = personScope(job.threadKey, job.trigger.actor.id);
  if (person === undefined) return undefined;
  const setting = (await deps.store.settings.list(person.scope)).find((s) => s.key === 'budget');
  const budgetUsd = setting === undefined ? NaN : Number(setting.value);
  if (!Number.isFinite(budgetUsd) || budgetUsd < 0) return undefined;
  const spentUsd = await deps.store.runs.spendOfRequesterSince(
    person.runsPrefix,
    job.trigger.actor.id,
    monthStartUtc(now),
  );
  if (spentUsd < budgetUsd) return undefined;
  job.log.info(
    { person: person.scope, spentUsd, budgetUsd },
    'run refused: the person reached their budget',
  );
  deps.metrics.inc('budget_refusals', { platform: job.trigger.platform });
  const platform = platformOf(job);
  return replyWith(
    job,
    notice(
      'warning',
      `Your runs have spent ${spentWords({ spentUsd, budgetUsd }, now).replace('of its', 'of your')}, so no new run of yours starts until the month ends or your budget is raised. Follow-ups to your runs still go through. ${platform === 'github' ? 'An admin of this repository can raise it:' : 'An admin of agent-relay can raise it:'}`,
      `${platform === 'github' ? `@${deps.options.botHandle}` : deps.options.commandWord} config user=@<you> budget=<US dollars>`,
      job.actor,
    ),
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
  words: { botHandle: string; commandWord: string },
): MessageModel {
  const where = placeKind(platform);
  const share = budget.budgetUsd > 0 ? Math.floor((budget.spentUsd / budget.budgetUsd) * 100) : 100;
  const next =
    budget.spentUsd >= budget.budgetUsd
      ? 'No new run starts here until the month ends or the budget is raised; follow-ups to runs already here still go through.'
      : 'New runs are refused here once the spend reaches the budget.';
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
