/** One env=/model= value against a catalogue, and the words of each mistake. */
import { describe, expect, it } from 'vitest';
import { problemText, resolveCatalogueValue } from '../../src/core/catalogue-check.js';
import type { Catalogue } from '../../src/core/ports/index.js';

const catalogue: Catalogue = {
  environments: async () => [
    { id: 'env-web-app', name: 'Web App', repos: [] },
    { id: 'env-payments', name: 'Payments', repos: [] },
  ],
  models: async () => [
    { id: 'gpt-5-4-high', name: 'GPT-5.4' },
    { id: 'o-old', name: 'Old One', disabledReason: 'PROVIDER_OUTAGE' },
  ],
};
const down: Catalogue = { environments: async () => undefined, models: async () => undefined };

async function mistake(key: 'env' | 'model', given: string, source?: 'personal' | 'default') {
  const r = await resolveCatalogueValue(catalogue, key, given);
  if (r.ok) throw new Error(`${given} resolved`);
  return problemText(key, given, r, source);
}

describe('resolveCatalogueValue', () => {
  it('a name becomes its id, shown with its name', async () => {
    expect(await resolveCatalogueValue(catalogue, 'env', 'payments')).toEqual({
      ok: true,
      id: 'env-payments',
      shown: 'Payments (env-payments)',
    });
  });

  it('with the catalogue down, the value passes as given', async () => {
    expect(await resolveCatalogueValue(down, 'model', 'anything')).toEqual({
      ok: true,
      id: 'anything',
      shown: 'anything',
    });
  });
});

describe('the words of a mistake', () => {
  it('inline: the close names and the form to use', async () => {
    expect(await mistake('env', 'paymnts')).toBe(
      'No environment is named `paymnts`. Close: `Payments (env-payments)`. ' +
        'Name one with `env=<name or id>`.',
    );
  });

  it("a channel's default: says so and how to fix it", async () => {
    expect(await mistake('env', 'env-gone', 'default')).toContain('(the default here)');
    expect(await mistake('env', 'env-gone', 'default')).toContain('`config env=<name or id>`');
  });

  it("a person's own default: points at App Home, not at config", async () => {
    const text = await mistake('model', 'gone', 'personal');
    expect(text).toContain('(your default)');
    expect(text).toContain('Home tab');
    expect(text).not.toContain('config');
  });

  it('a model the service marks unavailable: its reason', async () => {
    expect(await mistake('model', 'old')).toBe(
      'The model `Old One (o-old)` cannot be used now (the service says PROVIDER_OUTAGE). ' +
        'Pick another with `model=…`.',
    );
  });
});
