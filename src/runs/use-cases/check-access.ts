/**
 * Whether the author of a GitHub request may act in its repository, asked (through the
 * RepoAccess port: GitHub's collaborator permission, cached) before any GitHub command is
 * routed: start, follow-up, cancel, config, list, status. The ingress only filtered on
 * `author_association`, which says nothing of write access (a read-only collaborator is a
 * COLLABORATOR too). Answers:
 *
 * - refused: one polite note per person and thread per hour (remembered in the store, so
 *   every replica knows), in the outbox's low lane, behind everyone else's notices;
 * - unknown (GitHub did not answer): nothing is done and the person is asked to try again;
 *   never allowed.
 */
import { refusalCapOf } from '../../core/place.js';
import { notice } from '../../core/message/render-model.js';
import { decodeThreadKey } from '../../core/thread-key.js';
import type { Command } from '../../core/command/command.js';
import type { RunsDeps } from '../runs-deps.js';
import { enqueue, type Effects, type TriggerJob } from './trigger-job.js';

/** A person refused in a thread is told again at most after this long. */
export const REFUSAL_WINDOW_MS = 60 * 60_000;

/** `undefined`: go ahead. Otherwise what to do instead of the request. */
export async function checkAccess(
  deps: RunsDeps,
  job: TriggerJob,
  command?: Command,
): Promise<Effects | undefined> {
  const { trigger } = job;
  if (trigger.platform !== 'github') return checkPlaceAccess(deps, job, command);
  if (deps.repoAccess?.check === undefined) return undefined;
  const address = decodeThreadKey(trigger.threadKey);
  if (address?.platform !== 'github') return undefined;
  const login = trigger.actor.id;
  const verdict = await deps.repoAccess.check({
    owner: address.owner,
    repo: address.repo,
    login,
  });
  if (verdict.kind === 'allowed') {
    // An admin of the repository administers it: sets its people's budgets.
    if (verdict.role === 'admin') trigger.actor.admin = true;
    else delete trigger.actor.admin;
    return undefined;
  }
  if (verdict.kind === 'unknown') {
    job.log.warn({ actor: login, reason: verdict.reason }, 'access unknown; request not done');
    return enqueue({
      kind: 'post',
      destination: { threadKey: job.threadKey },
      message: notice(
        'error',
        "I couldn't check your access to this repository with GitHub just now, so I did " +
          'nothing. Please try again in a minute.',
        undefined,
        job.actor,
      ),
    });
  }
  job.log.info(
    { actor: login, role: verdict.role, required: verdict.required },
    'author lacks repository access; refused',
  );
  return async (tx, now) => {
    const cap = refusalCapOf(job.threadKey);
    if (!(await tx.refusals.note(job.threadKey, login, now, REFUSAL_WINDOW_MS, cap))) return;
    await tx.outbox.enqueue(
      {
        kind: 'post',
        destination: { threadKey: job.threadKey },
        lane: 'low',
        message: notice(
          'info',
          `Thanks for the request. Agent runs in this repository can be started, steered or ` +
            `cancelled only by people with ${verdict.required} access (or higher) to it. Please ask ` +
            `one of them to mention me for you.`,
          undefined,
          job.actor,
        ),
      },
      now,
    );
  };
}

/** A `config` that sets or unsets something (`config` alone only shows). */
function changesConfig(command: Command | undefined): boolean {
  if (command?.type !== 'config') return false;
  return Object.values(command.set).some((v) => v !== undefined) || command.unset.length > 0;
}

/**
 * Another platform's places (Jira's projects, Linear's workspaces): the person must have the
 * right to act there;
 * a `config` change asks too whether they administer the place, and marks them an admin for
 * the config use case when they do. Refusals as for GitHub: capped, in the low lane.
 */
async function checkPlaceAccess(
  deps: RunsDeps,
  job: TriggerJob,
  command: Command | undefined,
): Promise<Effects | undefined> {
  const access = deps.repoAccess?.checkPlace;
  if (access === undefined) return undefined;
  const person = job.trigger.actor.id;
  const ask = (wants: 'act' | 'configure') =>
    access({ threadKey: job.threadKey, person, wants }).catch(
      (err: unknown) => ({ kind: 'unknown', reason: String(err) }) as const,
    );
  const verdict = await ask('act');
  // Slack: its ingress decided, and marked its admins.
  if (verdict.kind === 'unanswered') return undefined;
  if (verdict.kind === 'unknown') {
    job.log.warn({ actor: person, reason: verdict.reason }, 'access unknown; request not done');
    return enqueue({
      kind: 'post',
      destination: { threadKey: job.threadKey },
      message: notice(
        'error',
        "I couldn't check your access to this project just now, so I did nothing. Please try " +
          'again in a minute.',
        undefined,
        job.actor,
      ),
    });
  }
  if (verdict.kind === 'refused') {
    job.log.info(
      { actor: person, need: verdict.need },
      'person lacks access to the place; refused',
    );
    return async (tx, now) => {
      if (!(await tx.refusals.note(job.threadKey, person, now, REFUSAL_WINDOW_MS))) return;
      await tx.outbox.enqueue(
        {
          kind: 'post',
          destination: { threadKey: job.threadKey },
          lane: 'low',
          message: notice(
            'info',
            `Thanks for the request. Agent runs here can be started, steered or cancelled only ` +
              `by people who ${verdict.need}. Please ask one of them to mention me for you.`,
            undefined,
            job.actor,
          ),
        },
        now,
      );
    };
  }
  if (changesConfig(command)) {
    const admin = await ask('configure');
    if (admin.kind === 'unknown')
      job.log.warn(
        { reason: admin.reason },
        'could not tell whether the person administers this place',
      );
    job.trigger.actor.admin = admin.kind === 'allowed';
  }
  return undefined;
}
