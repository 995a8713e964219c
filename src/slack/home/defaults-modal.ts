/**
 * The modal that edits a person's own defaults (model, env, skill), opened from App Home.
 * An empty field clears that default. Each value passes the same check as an inline option
 * of the command grammar; a bad one is shown on its field. Environments and models are
 * offered as choices from the service's catalogue when it answers, and a typed name is
 * checked against it on save (stored as the id it names).
 */
import type { SlackRoutes } from '../api/routes.js';
import { z } from 'zod';
import { checkOptionValue } from '../../core/command/option-values.js';
import type { Logger } from '../../core/ports/index.js';
import type { WebClient } from '../api/web-client.js';
import type { PersonalDefaults, PersonalKey } from './home-source.js';
import { PERSONAL_KEYS } from './home-source.js';
import {
  choiceElement,
  fieldValue,
  SubmittedField,
  type CatalogueChoices,
} from '../api/catalogue-choices.js';
import type { Catalogue } from '../../core/ports/index.js';
import { problemText, resolveCatalogueValue } from '../../core/catalogue-check.js';

export const DEFAULTS_CALLBACK_ID = 'agent_relay_personal_defaults';
const LABEL: Record<PersonalKey, string> = { model: 'Model', env: 'Environment', skill: 'Skill' };

export function defaultsModal(current: PersonalDefaults, choices: CatalogueChoices = {}) {
  return {
    type: 'modal' as const,
    callback_id: DEFAULTS_CALLBACK_ID,
    title: { type: 'plain_text' as const, text: 'Your defaults' },
    submit: { type: 'plain_text' as const, text: 'Save' },
    close: { type: 'plain_text' as const, text: 'Cancel' },
    blocks: PERSONAL_KEYS.map((key) => ({
      type: 'input' as const,
      block_id: key,
      optional: true,
      label: { type: 'plain_text' as const, text: LABEL[key] },
      hint: { type: 'plain_text' as const, text: "Empty: the channel's or the service's default." },
      element:
        key !== 'skill' && choices[key]
          ? choiceElement(choices[key], current[key], "The channel's or the service's default")
          : {
              type: 'plain_text_input' as const,
              action_id: 'value',
              ...(current[key] ? { initial_value: current[key] } : {}),
            },
    })),
  };
}

export function openDefaultsModal(
  client: WebClient,
  triggerId: string,
  current: PersonalDefaults,
  choices: CatalogueChoices = {},
) {
  return client.views.open({ trigger_id: triggerId, view: defaultsModal(current, choices) });
}

const Submission = z.object({
  user: z.object({ id: z.string() }),
  team: z.object({ id: z.string() }).nullish(),
  view: z.object({
    state: z.object({
      values: z.record(z.string(), z.record(z.string(), SubmittedField)),
    }),
  }),
});

export function registerDefaultsModal(
  routes: SlackRoutes,
  deps: {
    save(team: string, user: string, values: PersonalDefaults): Promise<void>;
    logger: Logger;
    /** Names of environments and models are checked against it (sent as given when down). */
    catalogue?: Catalogue;
  },
): void {
  routes.view(DEFAULTS_CALLBACK_ID, async ({ ack, body, context }) => {
    const parsed = Submission.safeParse(body);
    const team = context.teamId ?? parsed.data?.team?.id;
    if (!parsed.success || team === undefined) {
      await ack({
        response_action: 'errors',
        errors: { model: 'Sorry, that form could not be read.' },
      });
      return;
    }
    const values: PersonalDefaults = {};
    const errors: Record<string, string> = {};
    for (const key of PERSONAL_KEYS) {
      const raw = fieldValue(parsed.data.view.state.values[key]?.value);
      const checked = raw === '' ? undefined : checkOptionValue(key, raw);
      if (checked !== undefined && !checked.ok) errors[key] = checked.message;
      values[key] = checked?.ok ? checked.value : raw;
    }
    for (const key of ['env', 'model'] as const) {
      const given = values[key];
      if (errors[key] || given === undefined || given === '' || !deps.catalogue) continue;
      const resolved = await resolveCatalogueValue(deps.catalogue, key, given);
      if (resolved.ok) values[key] = resolved.id;
      else errors[key] = problemText(key, given, resolved).slice(0, 1_900);
    }
    if (Object.keys(errors).length > 0) {
      await ack({ response_action: 'errors', errors });
      return;
    }
    await deps.save(team, parsed.data.user.id, values);
    await ack();
  });
}
