/** `config [key=value …]`: show or change the defaults of this Slack channel / GitHub repo. */
import type { Command } from '../../core/command/command.js';
import type { OptionKey } from '../../core/message/message-model.js';
import { configMessage, notice } from '../../core/message/render-model.js';
import { replyPrivately, type Effects, type TriggerJob } from './trigger-job.js';
import type { Catalogue } from '../../core/ports/index.js';
import { problemText, resolveCatalogueValue } from '../../core/catalogue-check.js';
import { personScope } from '../../core/place.js';

type ConfigCommand = Extract<Command, { type: 'config' }>;

export const ADMINS_ONLY =
  "Only an admin of agent-relay may change this channel's defaults. `config` alone shows them.";

export const PLACE_ADMINS_ONLY =
  'Only an admin of this project may change its defaults and budget. `config` alone shows them.';

export const LINEAR_ADMINS_ONLY =
  "Only an admin of this Linear workspace may change the team's defaults and budget. `config` alone shows them.";

/**
 * Anyone may see the defaults; on Slack only an admin of agent-relay, on Linear only an admin
 * of the workspace (both marked by the ingress), may change them. GitHub: the ingress lets
 * only writers through.
 */
export async function configCommand(
  job: TriggerJob,
  command: ConfigCommand,
  catalogue?: Catalogue,
): Promise<Effects> {
  const person = command.user === undefined ? undefined : personScope(job.threadKey, command.user);
  const scope = person?.scope ?? job.trigger.settingsScope;
  const changes =
    Object.values(command.set).some((v) => v !== undefined) || command.unset.length > 0;
  const { platform } = job.trigger;
  if (changes && platform !== 'github' && job.trigger.actor.admin !== true) {
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
