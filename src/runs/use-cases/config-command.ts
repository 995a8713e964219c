/** `config [key=value …]`: show or change the defaults of this Slack channel / GitHub repo. */
import type { Command } from '../../core/command/command.js';
import type { OptionKey } from '../../core/message/message-model.js';
import { configMessage } from '../../core/message/render-model.js';
import type { Effects, TriggerJob } from './trigger-job.js';

type ConfigCommand = Extract<Command, { type: 'config' }>;

export function configCommand(job: TriggerJob, command: ConfigCommand): Effects {
  const scope = job.trigger.settingsScope;
  const changed: OptionKey[] = [];
  return async (tx, now) => {
    for (const [key, value] of Object.entries(command.set) as [OptionKey, string | undefined][]) {
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
