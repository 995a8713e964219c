/** `config [key=value …]`: show or change the defaults of this Slack channel / GitHub repo. */
import type { Command } from '../../core/command/command.js';
import type { OptionKey } from '../../core/message/message-model.js';
import { configMessage, notice } from '../../core/message/render-model.js';
import { replyPrivately, type Effects, type TriggerJob } from './trigger-job.js';
import type { Catalogue, PlaceAdmins, Platform } from '../../core/ports/index.js';
import { problemText, resolveCatalogueValue } from '../../core/catalogue-check.js';
import { personScope } from '../../core/place.js';

type ConfigCommand = Extract<Command, { type: 'config' }>;

/** Marked by the ingress, or else asked of the platform; not knowing is not being an admin. */
export async function isAdmin(job: TriggerJob, admins: PlaceAdmins | undefined): Promise<boolean> {
  if (job.trigger.actor.admin === true) return true;
  if (!admins) return false;
  return admins.isAdmin(job.threadKey, job.trigger.actor.id).catch((err: unknown) => {
    job.log.warn({ err }, 'could not tell whether the person administers this place');
    return false;
  });
}

export const ADMINS_ONLY =
  "Only an admin of agent-relay may change this channel's defaults. `config` alone shows them.";

export const REPO_ADMINS_ONLY =
  "Only an admin of this repository may set its budgets (the repository's or a person's). `config` alone shows the repository's defaults.";

export const NO_PERSON_BUDGETS =
  "People have no budgets of their own here: `config budget=…` sets the team's. Name no `user=`.";

export const SLACK_PERSON_BY_ID =
  'Name the person so Slack gives me their id: mention me in a message and pick them from the list as you type @ (a slash command only gets the name as typed), or give their member ID (U…, from their profile).';

/** A Slack user (or Enterprise Grid user) id, as a mention carries it. */
const SLACK_USER_ID = /^[UW][A-Z0-9]+$/;

export const PLACE_ADMINS_ONLY =
  'Only an admin of this project may change its defaults and budget. `config` alone shows them.';

export const LINEAR_ADMINS_ONLY =
  "Only an admin of this Linear workspace may change the team's defaults and budget. `config` alone shows them.";

/**
 * Anyone may see the defaults; on Slack only an admin of agent-relay (marked by the ingress),
 * on Linear only an admin of the workspace (asked of the platform now, after the
 * acknowledgement), may change them. GitHub: only writers get this far, and a budget (the
 * repository's or a person's) is set only by an admin of the repository (marked by the access
 * check).
 */
export async function configCommand(
  job: TriggerJob,
  command: ConfigCommand,
  deps: { catalogue?: Catalogue; admins: Partial<Record<Platform, PlaceAdmins>> },
): Promise<Effects> {
  const { catalogue } = deps;
  const { platform } = job.trigger;
  const person = command.user === undefined ? undefined : personScope(job.threadKey, command.user);
  // A person named who has no scope of their own here must never land on the place's.
  if (command.user !== undefined && person === undefined) {
    job.log.info({ user: command.user }, 'config refused: no person budgets here');
    return replyPrivately(job, notice('warning', NO_PERSON_BUDGETS));
  }
  if (platform === 'slack' && command.user !== undefined && !SLACK_USER_ID.test(command.user)) {
    job.log.info({}, 'config refused: a person named by a name Slack did not resolve');
    return replyPrivately(job, notice('error', SLACK_PERSON_BY_ID));
  }
  const scope = person?.scope ?? job.trigger.settingsScope;
  const changes =
    Object.values(command.set).some((v) => v !== undefined) || command.unset.length > 0;
  // On GitHub write access changes defaults; a budget (the repository's or a person's) is the
  // repository admins' to set.
  const touchesBudget = command.set.budget !== undefined || command.unset.includes('budget');
  if (
    changes &&
    platform === 'github' &&
    (person || touchesBudget) &&
    job.trigger.actor.admin !== true
  ) {
    job.log.info({ scope }, 'config change refused: not an admin of the repository');
    return replyPrivately(job, notice('warning', REPO_ADMINS_ONLY, undefined, job.actor));
  }
  if (changes && platform !== 'github' && !(await isAdmin(job, deps.admins[platform]))) {
    job.log.info({ scope }, 'config change refused: not an admin');
    return replyPrivately(
      job,
      notice(
        'warning',
        platform === 'linear'
          ? LINEAR_ADMINS_ONLY
          : platform === 'jira'
            ? PLACE_ADMINS_ONLY
            : ADMINS_ONLY,
      ),
    );
  }
  // A default names an environment or model by its id: checked now, so a wrong name is
  // answered to the one who set it rather than failing every later run here.
  const set = { ...command.set };
  for (const key of ['env', 'model'] as const) {
    const given = set[key];
    if (given === undefined || catalogue === undefined) continue;
    const resolved = await resolveCatalogueValue(catalogue, key, given);
    if (!resolved.ok) {
      job.log.info({ scope, key, given }, 'config change refused: the name did not resolve');
      const mention = job.trigger.platform === 'github' ? job.actor : undefined;
      return replyPrivately(
        job,
        notice('error', problemText(key, given, resolved), undefined, mention),
      );
    }
    set[key] = resolved.id;
  }
  const changed: OptionKey[] = [];
  return async (tx, now) => {
    for (const [key, value] of Object.entries(set) as [OptionKey, string | undefined][]) {
      if (value === undefined) continue;
      await tx.settings.set(scope, key, value, job.trigger.actor.id, now);
      changed.push(key);
    }
    for (const key of command.unset) {
      await tx.settings.unset(scope, key);
      changed.push(key);
    }
    if (changed.length > 0) job.log.info({ scope, changed }, 'defaults changed');
    const settings = (await tx.settings.list(scope)).map((s) => ({
      key: s.key,
      value: s.value,
      ...(s.updatedBy ? { updatedBy: s.updatedBy } : {}),
    }));
    await tx.outbox.enqueue(
      { kind: 'post', destination: job.reply, message: configMessage(scope, settings, changed) },
      now,
    );
  };
}
