/**
 * The Slack app manifest (`manifests/slack-app.yaml`) against Slack's published app manifest
 * schema, version 1 (the one a manifest without `_metadata.major_version` is read by):
 * `src/fakes/schemas/slack-manifest.schema.1.0.0.json`, a verbatim copy of
 * `schemas/manifest.schema.1.0.0.json` in github.com/slackapi/manifest-schema (its commit in
 * `src/fakes/schemas/README.md`). Every key, length, pattern and list the schema describes is
 * held; `manifest.test.ts` checks what the relay needs of it (scopes, events, the command).
 */
import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = new URL('../../', import.meta.url);
const schema = JSON.parse(
  readFileSync(new URL('src/fakes/schemas/slack-manifest.schema.1.0.0.json', root), 'utf8'),
) as object;
const manifest = parse(readFileSync(new URL('manifests/slack-app.yaml', root), 'utf8')) as {
  features: Record<string, unknown>;
  settings: { event_subscriptions: { request_url: string } };
};

function problems(value: unknown): string[] {
  const validate = new Ajv({ allErrors: true }).compile(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.dataPath || '/'} ${e.message ?? ''}`.trim());
}

describe("the Slack app manifest and Slack's manifest schema", () => {
  it('is a manifest the published schema accepts', () => {
    expect(problems(manifest)).toEqual([]);
  });

  it('the check bites: a key the schema does not know, or an event URL that is not http(s), is refused', () => {
    const misspelt = { ...manifest, features: { ...manifest.features, agent_views: {} } };
    expect(problems(misspelt).join('\n')).toMatch(/additional properties/);
    const settings = {
      ...manifest.settings,
      event_subscriptions: { ...manifest.settings.event_subscriptions, request_url: 'YOUR-HOST' },
    };
    expect(problems({ ...manifest, settings }).join('\n')).toMatch(/request_url should match/);
  });
});
