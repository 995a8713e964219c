/**
 * Where a trigger goes, in one place: a button straight to its use case, text through the
 * command parser to help, a plain-words correction, or the use case of its command.
 */
import type { Command, RunOptions } from '../../core/command/command.js';
import { parseCommand } from '../../core/command/parse-command.js';
import { helpMessage, notice } from '../../core/message/render-model.js';
import { cancelRun } from './cancel-run.js';
import { checkAccess } from './check-access.js';
import { configCommand } from './config-command.js';
import { currentRun } from './current-run.js';
import { personalScopeOf } from '../../core/thread-key.js';
import { loadDefaults } from './defaults.js';
import { dispatchFactory } from './dispatch-factory.js';
import { followUp } from './follow-up.js';
import { listRuns } from './list-runs.js';
import { retryRun } from './retry-run.js';
import { handleOn, type RunsDeps } from '../runs-deps.js';
import { showStatus } from './show-status.js';
import { REQUESTER_ONLY, steeringRefused } from './steering.js';
import { startRun } from './start-run.js';
import { answerReview, mayAnswer } from './review.js';
import { stopRun } from './stop-run.js';
import {
  noEffects,
  replyPrivately,
  replyWith,
  type Effects,
  type TriggerJob,
} from './trigger-job.js';

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
    if (run?.review?.kind === 'plan' && run.review.status === 'open') {
      // A reply to a plan waiting for review asks for changes to it (never carries it out):
      // from someone who may not answer, a plain reply is conversation, and nothing is said.
      if (trigger.kind === 'thread_reply' && !(await mayAnswer(deps, job, run)).ok)
        return async () => {};
      return answerReview(deps, job, { answer: 'changes', runId: run.runId, text: input.prompt });
    }
    if (run) {
      if (await steeringRefused(deps, job, run.requester.id)) {
        // A plain reply in the thread is conversation, not a request: nothing is said.
        if (trigger.kind === 'thread_reply') return async () => {};
        return replyPrivately(job, notice('info', REQUESTER_ONLY));
      }
      return followUp(deps, job, run, { prompt: input.prompt, inline: input.options });
    }
  }
  const defaults = await loadDefaults(deps, job, trigger.settingsScope);
  const inline: RunOptions = { ...input.options };
  if (!inline.factory && trigger.factoryAlias) inline.factory = trigger.factoryAlias;
  const alias = inline.factory ?? defaults.factory;
  if (alias) return dispatchFactory(deps, job, { alias, prompt: input.prompt, inline, defaults });
  const scope = personalScopeOf(job.threadKey, trigger.actor.id);
  const personal = scope === undefined ? {} : await loadDefaults(deps, job, scope);
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
      const defaults = await loadDefaults(deps, job, job.trigger.settingsScope);
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
    case 'stop':
      return stopRun(deps, job, command.runId ?? job.trigger.runId);
    case 'list':
      return listRuns(deps, job, command);
    case 'config':
      return configCommand(job, command, deps);
    case 'approve':
      return answerReview(deps, job, { answer: 'approve', ...runIdOf(command) });
    case 'continue':
      return answerReview(deps, job, { answer: 'continue', ...runIdOf(command) });
    case 'changes': {
      // With no plan waiting here, `changes …` is an ordinary prompt.
      const run = await currentRun(deps, job.threadKey);
      if (run?.review?.kind !== 'plan' || run.review.status !== 'open') {
        return prompt(deps, job, { prompt: command.words, options: {}, fresh: false });
      }
      return answerReview(deps, job, { answer: 'changes', text: command.text });
    }
  }
}

function runIdOf(command: { runId?: string }): { runId?: string } {
  return command.runId === undefined ? {} : { runId: command.runId };
}

/** How a person addresses the bot here: the slash command on Slack, the @-handle on GitHub. */
function invocationOf(deps: RunsDeps, job: TriggerJob): string {
  const { platform } = job.trigger;
  return platform === 'slack' ? deps.options.commandWord : `@${handleOn(deps.options, platform)}`;
}

/** The use case a trigger goes to, and what it decided. */
export async function routeTrigger(deps: RunsDeps, job: TriggerJob): Promise<Effects> {
  const { trigger } = job;
  // A button or Stop is asked about like any request: who the person is is known only now.
  if (trigger.kind === 'cancel_button')
    return (await checkAccess(deps, job)) ?? cancelRun(deps, job, trigger.runId);
  if (trigger.kind === 'stop_button' || trigger.kind === 'session_stopped') {
    return (await checkAccess(deps, job)) ?? stopRun(deps, job, trigger.runId);
  }
  if (trigger.kind === 'review_answer' && trigger.review !== undefined) {
    // `changes` from a form carries the words after the word itself: `changes <words>`.
    const text = trigger.text.replace(/^\s*changes\b/i, '').trim();
    // Who may use the relay here at all is checked as for any command (GitHub: write access).
    const refused = await checkAccess(deps, job);
    if (refused) return refused;
    return answerReview(deps, job, {
      answer: trigger.review.answer,
      version: trigger.review.version,
      ...(trigger.runId === undefined ? {} : { runId: trigger.runId }),
      ...(trigger.review.answer === 'changes' ? { text } : {}),
    });
  }
  if (trigger.kind === 'check_run_rerequested') {
    return (await checkAccess(deps, job)) ?? retryRun(deps, job, trigger.runId);
  }
  const parsed = parseCommand({
    text: trigger.text,
    addressed: trigger.addressed,
    ...(trigger.freshRun ? { freshRun: true } : {}),
    platform: trigger.platform,
    botHandle: handleOn(deps.options, trigger.platform),
    commandWord: deps.options.commandWord,
    maxPromptChars: deps.options.maxPromptChars,
  });
  if (parsed.kind === 'ignore') {
    job.log.debug({ reason: parsed.reason }, 'trigger ignored');
    return noEffects;
  }
  const refused = await checkAccess(
    deps,
    job,
    parsed.kind === 'command' ? parsed.command : undefined,
  );
  if (refused) return refused;
  switch (parsed.kind) {
    case 'reply':
      if (parsed.reply.type === 'help') return replyWith(job, helpMessage(invocationOf(deps, job)));
      // A mistake concerns the one who made it: privately on Slack (GitHub has no private
      // answer, so there the person is mentioned).
      return replyPrivately(
        job,
        notice(
          'error',
          parsed.reply.message,
          parsed.reply.usage,
          job.trigger.platform === 'github' ? job.actor : undefined,
        ),
      );
    case 'command':
      return routeCommand(deps, job, parsed.command);
  }
}
