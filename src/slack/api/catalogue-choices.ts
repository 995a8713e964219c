/**
 * The service's environments and models as choices in Slack's forms (the start form, the
 * personal defaults in App Home): a `static_select` per key when the catalogue answers in
 * time, the free-text field otherwise, so a form always opens (a trigger id lasts 3 s).
 */
import { z } from 'zod';
import { describeNamed, type Named } from '../../core/catalogue-names.js';
import type { Catalogue } from '../../core/ports/index.js';

export type ChoiceKey = 'env' | 'model';
export type CatalogueChoices = Partial<Record<ChoiceKey, Named[]>>;

/** How long a form waits for the catalogue before it opens with free-text fields. */
export const CHOICES_WAIT_MS = 1_500;
/** Slack's most options in one static_select. */
const MAX_OPTIONS = 100;
/** The option that means "no choice here" (a static_select cannot be emptied). */
export const NO_CHOICE = '-';

/** The entries to offer: models the service marks unavailable are left out. */
export async function catalogueChoices(
  catalogue: Catalogue | undefined,
  waitMs = CHOICES_WAIT_MS,
): Promise<CatalogueChoices> {
  if (!catalogue) return {};
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), waitMs);
  });
  try {
    const [env, model] = await Promise.all([
      Promise.race([catalogue.environments(), late]),
      Promise.race([catalogue.models(), late]),
    ]);
    const out: CatalogueChoices = {};
    if (env && env.length > 0) out.env = env;
    const usable = model?.filter((m) => m.disabledReason === undefined);
    if (usable && usable.length > 0) out.model = usable;
    return out;
  } finally {
    clearTimeout(timer);
  }
}

const plain = (text: string) => ({ type: 'plain_text' as const, text: text.slice(0, 75) });

/** A static_select of `entries` (action id `value`), with `current` chosen when listed. */
export function choiceElement(
  entries: readonly Named[],
  current: string | undefined,
  none: string,
) {
  const options = [
    { text: plain(none), value: NO_CHOICE },
    ...entries
      .slice(0, MAX_OPTIONS - 1)
      .map((e) => ({ text: plain(describeNamed(e)), value: e.id.slice(0, 150) })),
  ];
  const initial = options.find((o) => current !== undefined && o.value === current);
  return {
    type: 'static_select' as const,
    action_id: 'value',
    options,
    ...(initial ? { initial_option: initial } : {}),
  };
}

/** One field of a submitted view: typed text, or the chosen option. */
export const SubmittedField = z.object({
  value: z.string().nullish(),
  selected_option: z.object({ value: z.string() }).nullish(),
});

/** What a field holds, trimmed; '' for nothing (and for the "no choice" option). */
export function fieldValue(field: z.infer<typeof SubmittedField> | undefined): string {
  const chosen = field?.selected_option?.value;
  if (chosen !== undefined) return chosen === NO_CHOICE ? '' : chosen;
  return (field?.value ?? '').trim();
}
