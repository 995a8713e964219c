/**
 * The start form (a modal): the prompt, prefilled with a message when it comes from the
 * "Send to agent" shortcut, and the options a run takes (model, env, skill). Where the run
 * goes travels in the view's private metadata, sealed (start-form-seal.ts): the message's
 * thread, or (from the slash command alone) the channel, where the status message then
 * starts a thread; and the person the form was opened for. Environments and models are
 * choices from the service's catalogue when it answers in time, free text otherwise; either
 * way the run's start checks the name.
 */
import { z } from 'zod';
import { checkOptionValue } from '../../core/command/option-values.js';
import type { OptionKey } from '../../core/ports/index.js';
import {
  choiceElement,
  fieldValue,
  SubmittedField,
  type CatalogueChoices,
} from '../api/catalogue-choices.js';

export const START_FORM_CALLBACK_ID = 'agent_relay_start_form';
export const SEND_TO_AGENT_CALLBACK_ID = 'agent_relay_send_to_agent';
const OPTION_KEYS = ['model', 'env', 'skill'] as const;
const LABEL: Record<(typeof OPTION_KEYS)[number], string> = {
  model: 'Model',
  env: 'Environment',
  skill: 'Skill',
};
/** Slack's limit for a plain_text_input's value. */
const MAX_PROMPT = 3000;

export const StartPlace = z.object({
  team: z.string().regex(/^[A-Z0-9]{1,64}$/),
  channel: z.string().regex(/^[A-Z0-9]{1,64}$/),
  /** The person the form was opened for: only they may submit it. */
  user: z.string().regex(/^[A-Z0-9]{1,64}$/),
  /** The thread the run goes to; absent: a new thread from the status message. */
  threadTs: z
    .string()
    .regex(/^\d{1,20}\.\d{1,20}$/)
    .optional(),
  /** The message the form was opened on (reactions show the outcome on it). */
  messageTs: z
    .string()
    .regex(/^\d{1,20}\.\d{1,20}$/)
    .optional(),
});
export type StartPlace = z.infer<typeof StartPlace>;

/** The form for `place`; `metadata` is the place sealed (start-form-seal.ts). */
export function startFormView(
  place: StartPlace,
  prefill: string,
  metadata: string,
  choices: CatalogueChoices = {},
) {
  const input = (
    key: string,
    label: string,
    element: Record<string, unknown>,
    optional: boolean,
    hint?: string,
  ) => ({
    type: 'input' as const,
    block_id: key,
    optional,
    label: { type: 'plain_text' as const, text: label },
    ...(hint ? { hint: { type: 'plain_text' as const, text: hint } } : {}),
    element: { type: 'plain_text_input' as const, action_id: 'value', ...element },
  });
  const hint = "Empty: your default, else the channel's.";
  const option = (key: (typeof OPTION_KEYS)[number]) => {
    const entries = key === 'skill' ? undefined : choices[key];
    if (!entries) return input(key, LABEL[key], {}, true, hint);
    return {
      ...input(key, LABEL[key], {}, true, hint),
      element: choiceElement(entries, undefined, "Your default, else the channel's"),
    };
  };
  const prompt = prefill.slice(0, MAX_PROMPT);
  return {
    type: 'modal' as const,
    callback_id: START_FORM_CALLBACK_ID,
    private_metadata: metadata,
    title: { type: 'plain_text' as const, text: 'Start a run' },
    submit: { type: 'plain_text' as const, text: 'Start' },
    close: { type: 'plain_text' as const, text: 'Cancel' },
    blocks: [
      input(
        'prompt',
        'What should the agent do?',
        { multiline: true, max_length: MAX_PROMPT, ...(prompt ? { initial_value: prompt } : {}) },
        false,
        place.messageTs ? 'The thread so far goes with it as context.' : undefined,
      ),
      ...OPTION_KEYS.map(option),
    ],
  };
}

const Submitted = z.object({
  user: z.object({
    id: z.string(),
    username: z.string().optional(),
    team_id: z.string().optional(),
  }),
  view: z.object({
    private_metadata: z.string(),
    state: z.object({
      values: z.record(z.string(), z.record(z.string(), SubmittedField)),
    }),
  }),
});

export type StartSubmission =
  | {
      ok: true;
      place: StartPlace;
      user: { id: string; name?: string; teamId?: string };
      prompt: string;
      options: Partial<Record<OptionKey, string>>;
    }
  | { ok: false; errors: Record<string, string> };

/**
 * Read a submitted start form; each bad field gets its own message. `open` unseals the
 * private metadata; a form the relay did not open, or opened for someone else, is refused.
 */
export function readStartForm(
  body: unknown,
  open: (metadata: string) => StartPlace | undefined,
): StartSubmission {
  const parsed = Submitted.safeParse(body);
  const place = parsed.success ? open(parsed.data.view.private_metadata) : undefined;
  if (!parsed.success || place === undefined || place.user !== parsed.data.user.id)
    return {
      ok: false,
      errors: { prompt: 'Sorry, this form could not be read. Please open it again.' },
    };
  const values = parsed.data.view.state.values;
  const field = (key: string) => fieldValue(values[key]?.value);
  const errors: Record<string, string> = {};
  const prompt = field('prompt');
  if (prompt === '') errors.prompt = 'Say what the agent should do.';
  const options: Partial<Record<OptionKey, string>> = {};
  for (const key of OPTION_KEYS) {
    const raw = field(key);
    if (raw === '') continue;
    const checked = checkOptionValue(key, raw);
    if (checked.ok) options[key] = checked.value;
    else errors[key] = checked.message;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const { id, username, team_id: teamId } = parsed.data.user;
  return {
    ok: true,
    place,
    user: { id, ...(username ? { name: username } : {}), ...(teamId ? { teamId } : {}) },
    prompt,
    options,
  };
}
