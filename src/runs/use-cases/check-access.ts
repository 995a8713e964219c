/**
 * Who may act, asked by the runs after the acknowledgement and before anything reaches the
 * Agent Run Service: GitHub's repository permission (the RepoAccess port, cached; the ingress
 * only filtered on `author_association`, which says nothing of write access), and other
 * platforms' places through their access answer (Slack's people, Jira's projects, Linear's
 * admins). Answers:
 *
 * - refused: one polite note per person and thread per hour (remembered in the store, so
 *   every replica knows), privately where the platform can, in the outbox's low lane, behind
 *   everyone else's notices;
 * - unknown (the platform did not answer): the trigger is tried again quietly, as the inbox
 *   retries (a platform's passing hiccup loses nothing); after ACCESS_ATTEMPTS attempts nothing
 *   is done and the person is asked to try again; never allowed.
 */
import { refusalCapOf } from '../../core/place.js';
import type { PlaceAccessVerdict } from '../../core/ports/index.js';
import { notice } from '../../core/message/render-model.js';
import { decodeThreadKey } from '../../core/thread-key.js';
import type { Command } from '../../core/command/command.js';
import type { RunsDeps } from '../runs-deps.js';
import {
  enqueue,
  noEffects,
  privateDestination,
  type Effects,
  type TriggerJob,
} from './trigger-job.js';

/** Attempts at a trigger whose asker the platform could not tell us about, before giving up. */
export const ACCESS_ATTEMPTS = 3;

/** The platform did not say who the asker is; the inbox tries the trigger again later. */
export class AccessUnknown extends Error {
  override readonly name = 'AccessUnknown';
}

/** Tried again while attempts are left; then the person is asked to try again. */
function unknownAccess(job: TriggerJob, reason: string, text: string): Effects {
  if (job.item.attempts + 1 < ACCESS_ATTEMPTS) throw new AccessUnknown(reason);
  job.log.warn({ actor: job.trigger.actor.id, reason }, 'access unknown; request not done');
  return tryAgain(job, text);
}

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
    return unknownAccess(
      job,
      verdict.reason,
      "I couldn't check your access to this repository with GitHub just now, so I did " +
        'nothing. Please try again in a minute.',
    );
  }
  job.log.info(
    { actor: login, role: verdict.role, required: verdict.required },
    'author lacks repository access; refused',
  );
  return refuse(
    job,
    `Thanks for the request. Agent runs in this repository can be started, steered or ` +
      `cancelled only by people with ${verdict.required} access (or higher) to it. Please ask ` +
      `one of them to mention me for you.`,
  );
}

/** Nothing was done because the platform could not be asked: said to the person at once. */
function tryAgain(job: TriggerJob, text: string): Effects {
  return enqueue({
    kind: 'post',
    destination: privateDestination(job),
    message: notice('error', text, undefined, job.actor),
  });
}

/**
 * A refusal: privately where the platform has private answers, once per person and thread an
 * hour (remembered in the store, so every replica knows), a cap per place, in the low lane.
 */
function refuse(job: TriggerJob, text: string): Effects {
  return async (tx, now) => {
    const cap = refusalCapOf(job.threadKey);
    const person = job.trigger.actor.id;
    if (!(await tx.refusals.note(job.threadKey, person, now, REFUSAL_WINDOW_MS, cap))) return;
    await tx.outbox.enqueue(
      {
        kind: 'post',
        destination: privateDestination(job),
        lane: 'low',
        message: notice('info', text, undefined, job.actor),
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
 * Another platform's places (Slack's workspaces and channels, Jira's projects, Linear's
 * workspaces), asked of the thread's platform after the acknowledgement: the person must have
 * the right to act there (Slack: no guest or outsider unless allowed; Jira: the project's
 * permissions); the platform may say they are an admin (Slack), and a `config` change asks
 * whether they administer the place. Refusals are private where the platform has private
 * answers, capped, in the low lane; a plain reply in a thread (not addressed to the bot) of
 * someone refused is dropped without a word, as it was never meant for the bot.
 */
async function checkPlaceAccess(
  deps: RunsDeps,
  job: TriggerJob,
  command: Command | undefined,
): Promise<Effects | undefined> {
  const access = deps.repoAccess?.checkPlace;
  if (access === undefined) return undefined;
  const { trigger } = job;
  const person = trigger.actor.id;
  const ask = (wants: 'act' | 'configure') =>
    access({
      threadKey: job.threadKey,
      person,
      wants,
      ...(trigger.actor.team === undefined ? {} : { personTeam: trigger.actor.team }),
      ...(trigger.enterprise === undefined ? {} : { organization: trigger.enterprise }),
    }).catch((err: unknown): PlaceAccessVerdict => ({ kind: 'unknown', reason: String(err) }));
  const verdict = await ask('act');
  if (verdict.kind === 'unanswered') return undefined;
  if (verdict.kind !== 'allowed' && trigger.kind === 'thread_reply') {
    job.log.info({ actor: person, verdict: verdict.kind }, 'reply of someone refused; dropped');
    return noEffects;
  }
  if (verdict.kind === 'unknown') {
    return unknownAccess(
      job,
      verdict.reason,
      verdict.message ??
        "I couldn't check your access to this project just now, so I did nothing. Please " +
          'try again in a minute.',
    );
  }
  if (verdict.kind === 'refused') {
    job.log.info(
      { actor: person, need: verdict.need },
      'person lacks access to the place; refused',
    );
    return refuse(
      job,
      verdict.message ??
        `Thanks for the request. Agent runs here can be started, steered or cancelled only by ` +
          `people who ${verdict.need}. Please ask one of them to mention me for you.`,
    );
  }
  if (verdict.admin !== undefined) markAdmin(trigger, verdict);
  if (changesConfig(command)) {
    const admin = await ask('configure');
    if (admin.kind === 'unknown')
      job.log.warn(
        { reason: admin.reason },
        'could not tell whether the person administers this place',
      );
    trigger.actor.admin = admin.kind === 'allowed';
  }
  return undefined;
}

/** What the platform found the person to be, on the trigger for the use cases. */
function markAdmin(
  trigger: TriggerJob['trigger'],
  found: { admin?: boolean; relayAdmin?: boolean },
) {
  if (found.admin === true) trigger.actor.admin = true;
  else delete trigger.actor.admin;
  if (found.relayAdmin === true) trigger.actor.relayAdmin = true;
  else delete trigger.actor.relayAdmin;
}
