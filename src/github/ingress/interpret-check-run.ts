/**
 * `check_run` webhooks about a run's check run -> candidate Triggers: a click on its Stop or
 * Cancel button (`requested_action`) becomes the `stop` or `cancel` command for that run, and
 * "Re-run" (`rerequested`) asks to try the run again. The run is named by the check run's
 * `external_id`; the thread is the conversation of the pull request the id also carries (or,
 * for a check run written before it did, the one GitHub lists). Check runs carry no
 * `author_association`: who may act is decided by the repository access check, as for the
 * commands.
 */
import { z } from 'zod';
import type { Trigger } from '../../core/trigger.js';
import { encodeThreadKey, settingsScopeOf, type ThreadAddress } from '../../core/thread-key.js';
import { CHECK_ACTIONS, readReviewIdentifier } from '../api/check-actions.js';
import { readCheckExternalId } from '../api/check-external-id.js';
import { isSelfOrBot, type InterpretOptions, type Interpretation } from './trigger-candidate.js';
import { GitHubUser } from './webhook-payloads.js';

const CheckRunEvent = z.object({
  action: z.string(),
  check_run: z.object({
    external_id: z.string().nullish(),
    pull_requests: z.array(z.object({ number: z.number().int().positive() })).default([]),
  }),
  requested_action: z.object({ identifier: z.string() }).nullish(),
  repository: z.object({ name: z.string().min(1), owner: z.object({ login: z.string().min(1) }) }),
  installation: z.object({ id: z.number().int().positive() }).nullish(),
  sender: GitHubUser,
});

export function fromCheckRun(raw: unknown, opts: InterpretOptions): Interpretation {
  const parsed = CheckRunEvent.safeParse(raw);
  if (!parsed.success) return { kind: 'invalid', problem: 'check_run payload' };
  const { action, check_run: check, requested_action: clicked, sender } = parsed.data;
  const named = readCheckExternalId(check.external_id ?? '');
  const runId = named.runId;
  // Check runs of other Apps, or of ours made before runs had ids, name no run.
  if (runId === '') return { kind: 'ignore', reason: 'check_run without a run' };
  if (isSelfOrBot(sender, opts)) return { kind: 'ignore', reason: 'bot_or_self' };
  // The run's own conversation, as the relay wrote it into the id: GitHub lists no pull
  // request for a fork's commit, and may list several for a shared one.
  const pullNumber = named.pullNumber ?? check.pull_requests[0]?.number;
  if (pullNumber === undefined)
    return { kind: 'ignore', reason: 'check_run without a pull request' };
  let command: string;
  let kind: Trigger['kind'];
  let review: Trigger['review'];
  const answer = readReviewIdentifier(clicked?.identifier ?? '');
  if (action === 'requested_action' && answer !== undefined) {
    // A plan's answer, bound to the plan's version.
    command = `${answer.answer} ${runId}`;
    kind = 'review_answer';
    review = answer;
  } else if (action === 'requested_action') {
    const id = clicked?.identifier;
    if (id !== CHECK_ACTIONS.stop && id !== CHECK_ACTIONS.cancel)
      return { kind: 'ignore', reason: `check_run action ${String(id)}` };
    command = id;
    kind = 'check_run_action';
  } else if (action === 'rerequested') {
    command = 'try again';
    kind = 'check_run_rerequested';
  } else return { kind: 'ignore', reason: `check_run.${action}` };

  const owner = parsed.data.repository.owner.login;
  const repo = parsed.data.repository.name;
  const address: ThreadAddress = { platform: 'github', owner, repo, number: pullNumber };
  let threadKey: string;
  try {
    threadKey = encodeThreadKey(address);
  } catch {
    return { kind: 'invalid', problem: 'repository or number cannot name a thread' };
  }
  const trigger: Trigger = {
    platform: 'github',
    kind,
    threadKey,
    actor: { id: sender.login, name: sender.login },
    text: command,
    addressed: true,
    context: {},
    deliveryId: opts.deliveryId,
    receivedAt: opts.receivedAt,
    settingsScope: settingsScopeOf(address),
    runId,
    ...(review === undefined ? {} : { review }),
  };
  return {
    kind: 'candidate',
    trigger,
    permission: { kind: 'repo-access' },
    owner,
    repo,
    installationId: parsed.data.installation?.id ?? undefined,
  };
}
