/**
 * Checking one `env=` or `model=` value against the service's catalogue (the rule of naming:
 * catalogue-names.ts), and the words of the answer when it does not name exactly one entry.
 * Shared by the run's start, `config`, and Slack's forms.
 */
import { describeNamed, lookupName, type Named, type NameLookup } from './catalogue-names.js';
import type { SettingSource } from './message/message-model.js';
import type { Catalogue } from './ports/catalogue.js';

export type CatalogueKey = 'env' | 'model';

const WHAT: Record<CatalogueKey, string> = { env: 'environment', model: 'model' };

function listed(entries: readonly Named[]): string {
  return entries.map((e) => `\`${describeNamed(e)}\``).join(', ');
}

/** Where a value came from, as the reply names it. */
const ORIGIN: Record<SettingSource, string> = {
  inline: '',
  personal: ' (your default)',
  default: ' (the default here)',
  repository: '',
  service: '',
};

/** The private answer to a name that does not resolve; `origin` says whose default it was. */
export function nameProblem(
  key: CatalogueKey,
  given: string,
  found: Exclude<NameLookup<Named>, { kind: 'found' }>,
  source: SettingSource = 'inline',
): string {
  const what = WHAT[key];
  const inline = `\`${key}=<name or id>\``;
  const fix =
    source === 'personal'
      ? `Change it under "Your defaults" in the app's Home tab, or name one inline with ${inline}.`
      : source === 'default'
        ? `Fix it with \`config ${key}=<name or id>\`, or name one inline with ${inline}.`
        : `Name one with ${inline}.`;
  if (found.kind === 'ambiguous') {
    return `\`${given}\`${ORIGIN[source]} could be more than one ${what}: ${listed(found.candidates)}. Type more of the name. ${fix}`;
  }
  const close =
    found.close.length > 0 ? ` Close: ${listed(found.close)}.` : ` The service lists no ${what}s.`;
  return `No ${what} is named \`${given}\`${ORIGIN[source]}.${close} ${fix}`;
}

async function entriesOf(
  catalogue: Catalogue,
  key: CatalogueKey,
): Promise<(Named & { disabledReason?: string })[] | undefined> {
  return key === 'env' ? catalogue.environments() : catalogue.models();
}

/** The value given for `key` resolved to an id; when the catalogue cannot be read, the value as given. */
export async function resolveCatalogueValue(
  catalogue: Catalogue,
  key: CatalogueKey,
  given: string,
): Promise<
  | { ok: true; id: string; shown: string }
  | { ok: false; lookup: Exclude<NameLookup<Named>, { kind: 'found' }> }
  | { ok: false; disabled: string; shown: string }
> {
  const entries = await entriesOf(catalogue, key);
  if (entries === undefined) return { ok: true, id: given, shown: given };
  const lookup = lookupName(given, entries);
  if (lookup.kind !== 'found') return { ok: false, lookup };
  const shown = describeNamed(lookup.entry);
  if (lookup.entry.disabledReason) {
    return { ok: false, disabled: lookup.entry.disabledReason, shown };
  }
  return { ok: true, id: lookup.entry.id, shown };
}

/** The mistake text of an unresolved value (unknown, ambiguous or a disabled model). */
export function problemText(
  key: CatalogueKey,
  given: string,
  failed: Exclude<Awaited<ReturnType<typeof resolveCatalogueValue>>, { ok: true }>,
  source: SettingSource = 'inline',
): string {
  if ('disabled' in failed) {
    return `The ${WHAT[key]} \`${failed.shown}\`${ORIGIN[source]} cannot be used now (the service says ${failed.disabled}). Pick another with \`${key}=…\`.`;
  }
  return nameProblem(key, given, failed.lookup, source);
}
