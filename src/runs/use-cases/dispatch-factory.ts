/**
 * Hand work to a factory's foreman (`factory <alias> …`, `@<alias> …`, `factory=<alias>`, or a
 * GitHub `factory:<alias>` label). The alias is resolved by search, keeping the exact alias
 * match (case-insensitive); none or several -> the person is shown the candidates.
 */
import type { DispatchRequest, Factory } from '../../core/run.js';
import { appliedSettings } from '../../core/message/applied-settings.js';
import type { RunOptions } from '../../core/command/command.js';
import { isServiceError } from '../../core/ports/index.js';
import { factoryChoice, notice } from '../../core/message/render-model.js';
import { acknowledgeStart, awaitServiceTurn, requestAnswer } from './acknowledge.js';
import { checkBudget } from './budget.js';
import { recordNewRun } from './record-run.js';
import type { RunsDeps } from '../runs-deps.js';
import { titleFor } from './start-run.js';
import { promptFor } from './thread-context.js';
import type { MessageModel } from '../../core/message/message-model.js';
import { noEffects, type Effects, type TriggerJob } from './trigger-job.js';

export function pickFactory(alias: string, factories: readonly Factory[]): Factory[] {
  const wanted = alias.replace(/^@/, '').toLowerCase();
  return factories.filter((f) => (f.alias ?? '').replace(/^@/, '').toLowerCase() === wanted);
}

/**
 * The ticket a dispatch names, in the published `<source>:<id>` form: a GitHub issue or pull
 * request is `github:owner/repo#12`. A Slack message is no ticket: the reference is omitted
 * and the service mints one; its permalink still travels as `ticket_url`.
 */
export function ticketRefOf(
  issue: { repo: string; number: number } | undefined,
): string | undefined {
  return issue ? `github:${issue.repo}#${issue.number}` : undefined;
}

function ticketOf(job: TriggerJob): Pick<DispatchRequest, 'ticket_ref' | 'ticket_url'> {
  const { issue, permalink, comment } = job.trigger.context;
  const out: Pick<DispatchRequest, 'ticket_ref' | 'ticket_url'> = {};
  const ref = ticketRefOf(issue);
  if (ref) out.ticket_ref = ref;
  const url = comment?.url ?? issue?.url ?? permalink;
  if (url) out.ticket_url = url;
  return out;
}

/** The answer replaces the "Starting…" message queued for this request. */
function answerRequest(job: TriggerJob, message: MessageModel): Effects {
  return async (tx, now) => {
    await tx.outbox.enqueue(await requestAnswer(tx, job, message), now);
  };
}

export async function dispatchFactory(
  deps: RunsDeps,
  job: TriggerJob,
  input: { alias: string; prompt: string; inline: RunOptions; defaults: RunOptions },
): Promise<Effects> {
  // The dispatch carries no metadata stamp, so only our own record can prove an earlier
  // attempt succeeded.
  if (await deps.store.runs.getByRequest(job.requestId)) return noEffects;
  const overBudget = await checkBudget(deps, job);
  if (overBudget) return overBudget;
  const title = titleFor(input.prompt, { ...input.defaults, ...input.inline });
  // Model/env/skill do not travel with a dispatch: only the factory is reported.
  const applied = appliedSettings(
    { factory: input.inline.factory },
    { factory: input.defaults.factory },
  ).filter((s) => s.key === 'factory');
  // A mistake is answered before anything public: the alias is looked up first, and only a
  // factory that exists gets the public "Starting…" message.
  const found = await deps.agent.listFactories({ search: input.alias });
  const exact = pickFactory(input.alias, found);
  const factory = exact.length === 1 ? exact[0] : undefined;
  if (!factory) {
    job.log.info({ alias: input.alias, candidates: found.length }, 'factory alias did not resolve');
    const candidates = exact.length > 1 ? exact : found;
    // Nothing like it: name the factories that exist, so the next try can be right.
    const available =
      candidates.length === 0
        ? await deps.agent.listFactories({}).catch(() => undefined)
        : undefined;
    // Nothing was posted yet: the choice goes to the asker alone (GitHub: a reply to them).
    return answerRequest(job, factoryChoice(input.alias, candidates, available));
  }
  await acknowledgeStart(deps, job, {
    title,
    prompt: input.prompt,
    applied,
    factory: { alias: input.alias },
  });
  awaitServiceTurn(deps, job);
  const prompt = await promptFor(deps, job, input.prompt);
  const body: DispatchRequest = { prompt, ...(title ? { title } : {}), ...ticketOf(job) };
  let dispatched;
  try {
    dispatched = await deps.agent.dispatchToFactory(factory.uid, body);
  } catch (err) {
    // Without a metadata stamp there is nothing to reconcile by: a retry might dispatch twice.
    if (!isServiceError(err) || !err.outcomeUnknown) throw err;
    job.log.warn({ err, factory: factory.uid }, 'factory dispatch outcome unknown');
    const text = `The Agent Run Service did not confirm the hand-off to ${factory.name}; the run may or may not have started. Check the list of runs before asking again.`;
    return answerRequest(job, notice('warning', text, undefined, job.actor));
  }
  job.log.info(
    { runId: dispatched.run_id, state: dispatched.state, factory: factory.uid },
    'run created',
  );
  return recordNewRun(deps, job, {
    runId: dispatched.run_id,
    state: dispatched.state,
    title: title ?? dispatched.run_id,
    prompt: input.prompt,
    applied,
    factory: {
      uid: factory.uid,
      name: factory.name,
      ...(factory.alias ? { alias: factory.alias } : {}),
    },
  });
}
