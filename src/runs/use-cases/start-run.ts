/**
 * Start a run (docs/architecture.md, "The flow"): defaults applied (inline > personal >
 * channel/repo > service), 👀 and the "Starting…" status message queued at once (acknowledge.ts), the conversation's
 * context in the prompt, the relay's metadata stamp, then one create.
 * A retried attempt reconciles first, so a create that reached the service is not repeated.
 */
import type { CreateRunRequest, RunItem } from '../../core/run.js';
import { appliedSettings, effectiveOptions } from '../../core/message/applied-settings.js';
import type { RunOptions } from '../../core/command/command.js';
import { deriveTitle } from '../../core/command/derive-title.js';
import { isRunMode } from '../../core/command/run-modes.js';
import { stateView } from '../../core/message/state-view.js';
import { acknowledgeStart, awaitServiceTurn, requestAnswer } from './acknowledge.js';
import { checkBudget } from './budget.js';
import { looksLikeSummary } from '../run-changes.js';
import { reconcile } from './reconcile.js';
import { recordNewRun } from './record-run.js';
import { runMetadata } from './run-metadata.js';
import type { RunsDeps } from '../runs-deps.js';
import { promptFor } from './thread-context.js';
import { noEffects, type Effects, type TriggerJob } from './trigger-job.js';
import { resolveNames } from './catalogue-names.js';

/** How long the inbox holds back after a create answered `at_capacity`. */
export const AT_CAPACITY_PAUSE_MS = 1_000;

export function titleFor(prompt: string, options: RunOptions): string | undefined {
  const given = options.title?.trim();
  if (given) return given;
  return deriveTitle(prompt) || undefined;
}

export function createRequest(input: {
  prompt: string;
  title: string | undefined;
  options: RunOptions;
  metadata: Record<string, string>;
}): CreateRunRequest {
  const { options } = input;
  const config: NonNullable<CreateRunRequest['config']> = {};
  if (options.model) config.model_id = options.model;
  if (options.env) config.environment_id = options.env;
  if (options.skill) config.skill_spec = options.skill;
  if (options.name) config.name = options.name;
  // Team-owned, so teammates can open the run's session from the thread (the service makes
  // a run personal by default for a key whose user is on several teams).
  const request: CreateRunRequest = { prompt: input.prompt, team: true, metadata: input.metadata };
  if (input.title) request.title = input.title;
  if (Object.keys(config).length > 0) request.config = config;
  if (options.mode && isRunMode(options.mode)) request.mode = options.mode;
  return request;
}

/**
 * A found run that already ended (or is BLOCKED) gets its outcome reply at once; when the
 * search returned a summary, the detail makes that reply complete. Best effort: a failed
 * fetch keeps the summary.
 */
async function foundDetail(deps: RunsDeps, job: TriggerJob, found: RunItem): Promise<RunItem> {
  const state = stateView(found.state);
  if (!(state.ended || state.blocked) || !looksLikeSummary(found)) return found;
  try {
    return await deps.agent.getRun(found.run_id);
  } catch (err) {
    job.log.warn({ err, runId: found.run_id }, 'could not fetch the found run; using its summary');
    return found;
  }
}

export async function startRun(
  deps: RunsDeps,
  job: TriggerJob,
  input: { prompt: string; inline: RunOptions; defaults: RunOptions; personal?: RunOptions },
): Promise<Effects> {
  const personal = input.personal ?? {};
  // env=/model= by name: resolved (or refused, privately) before anything public is said.
  const named = await resolveNames(deps.catalogue, job, {
    options: effectiveOptions(input.inline, { ...input.defaults, ...personal }),
    applied: appliedSettings(input.inline, input.defaults, personal),
  });
  if (!named.ok) {
    // Private, as nothing public was said (a retried attempt edits its own "Starting…").
    const message = named.message;
    return async (tx, now) => {
      await tx.outbox.enqueue(await requestAnswer(tx, job, message), now);
    };
  }
  const { options, applied } = named;
  const title = titleFor(input.prompt, options);
  const overBudget = await checkBudget(deps, job);
  if (overBudget) return overBudget;
  await acknowledgeStart(deps, job, { title, prompt: input.prompt, applied });
  awaitServiceTurn(deps, job);

  const earlier = await reconcile(deps, job);
  if (earlier.kind === 'recorded') return noEffects;
  if (earlier.kind === 'found') {
    const found = await foundDetail(deps, job, earlier.run);
    const { run_id, state } = found;
    return recordNewRun(deps, job, {
      runId: run_id,
      state,
      title: found.title || title || run_id,
      prompt: input.prompt,
      applied,
      found,
    });
  }

  const prompt = await promptFor(deps, job, input.prompt);
  const metadata = runMetadata({
    trigger: job.trigger,
    threadKey: job.threadKey,
    requestId: job.requestId,
  });
  const created = await deps.agent.createRun(createRequest({ prompt, title, options, metadata }));
  job.log.info({ runId: created.run_id, state: created.state }, 'run created');
  // Accepted but queued behind a full service: new triggers wait a little, as after a 429.
  if (created.at_capacity === true) deps.slowDown(AT_CAPACITY_PAUSE_MS, 'at_capacity');
  return recordNewRun(deps, job, {
    runId: created.run_id,
    state: created.state,
    title: title ?? created.run_id,
    prompt: input.prompt,
    applied,
  });
}
