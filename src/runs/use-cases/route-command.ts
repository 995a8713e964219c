/** Which use case a parsed command goes to (one registry, one place). */
import type { Command, RunOptions } from '../../core/command/command.js';
import { cancelRun } from './cancel-run.js';
import { configCommand } from './config-command.js';
import { currentRun } from './current-run.js';
import { personalScopeOf } from '../../core/thread-key.js';
import { loadDefaults } from './defaults.js';
import { dispatchFactory } from './dispatch-factory.js';
import { followUp } from './follow-up.js';
import { listRuns } from './list-runs.js';
import type { RunsDeps } from '../runs-deps.js';
import { showStatus } from './show-status.js';
import { startRun } from './start-run.js';
import { notice } from '../../core/message/render-model.js';
import { replyPrivately, type Effects, type TriggerJob } from './trigger-job.js';

export const REQUESTER_ONLY =
  'Here only the person who started a run may follow up on it (`config steer=requester`). ' +
  'Start your own with `new …`.';

/** `config steer=requester`: someone other than the requester may not steer the run. */
async function steeringRefused(
  deps: RunsDeps,
  job: TriggerJob,
  requester: string,
): Promise<boolean> {
  if (job.trigger.actor.id === requester) return false;
  const settings = await loadDefaults(deps.store, job.trigger.settingsScope);
  return settings.steer === 'requester';
}

/** A prompt: follow up on the thread's run, or start one (here or at a factory). */
async function prompt(
  deps: RunsDeps,
  job: TriggerJob,
  input: { prompt: string; options: RunOptions; fresh: boolean },
): Promise<Effects> {
  const { trigger } = job;
  const asksForFactory = Boolean(input.options.factory ?? trigger.factoryAlias);
  if (!input.fresh && !trigger.anchorsNewThread && !asksForFactory) {
    const run = await currentRun(deps, job.threadKey);
    if (run) {
      if (await steeringRefused(deps, job, run.requester.id)) {
        // A plain reply in the thread is conversation, not a request: nothing is said.
        if (trigger.kind === 'thread_reply') return async () => {};
        return replyPrivately(job, notice('info', REQUESTER_ONLY));
      }
      return followUp(deps, job, run, { prompt: input.prompt, inline: input.options });
    }
  }
  const defaults = await loadDefaults(deps.store, trigger.settingsScope);
  const inline: RunOptions = { ...input.options };
  if (!inline.factory && trigger.factoryAlias) inline.factory = trigger.factoryAlias;
  const alias = inline.factory ?? defaults.factory;
  if (alias) return dispatchFactory(deps, job, { alias, prompt: input.prompt, inline, defaults });
  const scope = personalScopeOf(job.threadKey, trigger.actor.id);
  const personal = scope === undefined ? {} : await loadDefaults(deps.store, scope);
  return startRun(deps, job, { prompt: input.prompt, inline, defaults, personal });
}

export async function routeCommand(
  deps: RunsDeps,
  job: TriggerJob,
  command: Command,
): Promise<Effects> {
  switch (command.type) {
    case 'run':
      return prompt(deps, job, command);
    case 'factory': {
      const defaults = await loadDefaults(deps.store, job.trigger.settingsScope);
      const inline: RunOptions = { ...command.options, factory: command.alias };
      return dispatchFactory(deps, job, {
        alias: command.alias,
        prompt: command.prompt,
        inline,
        defaults,
      });
    }
    case 'status':
      return showStatus(deps, job, command.runId);
    case 'cancel':
      return cancelRun(deps, job, command.runId ?? job.trigger.runId);
    case 'list':
      return listRuns(deps, job, command);
    case 'config':
      return configCommand(job, command);
  }
}
