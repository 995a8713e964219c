import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, EnvSchema, SECRET_VARIABLES } from '../../src/config/load.js';
import { createMetrics } from '../../src/service/metrics.js';

// The operator guide is docs/operating.md.
const guide = readFileSync(new URL('../../docs/operating.md', import.meta.url), 'utf8');
const section = (title: string) => {
  const start = guide.indexOf(`\n## ${title}`);
  expect(start).toBeGreaterThanOrEqual(0);
  const end = guide.indexOf('\n## ', start + 1);
  return guide.slice(start, end === -1 ? undefined : end);
};

describe('the operator guide', () => {
  it('has one configuration row per variable, and no unknown ones', () => {
    const rows = [...section('Configuration').matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]);
    expect(rows).toEqual(CONFIG_VARIABLES.map((v) => v.name));
  });

  it("the schema reads exactly the documented variables, each with its own entry's schema", () => {
    expect(Object.keys(EnvSchema.shape).sort()).toEqual(CONFIG_VARIABLES.map((v) => v.name).sort());
    expect(new Set(CONFIG_VARIABLES.map((v) => v.name)).size).toBe(CONFIG_VARIABLES.length);
    const shape = EnvSchema.shape as Record<string, unknown>;
    for (const v of CONFIG_VARIABLES) expect(shape[v.name], v.name).toBe(v.schema);
  });

  it('the redaction list is the entries marked secret', () => {
    expect([...SECRET_VARIABLES].sort()).toEqual(
      CONFIG_VARIABLES.filter((v) => v.secret === true)
        .map((v) => v.name)
        .sort(),
    );
    expect(SECRET_VARIABLES).toContain('SLACK_BOT_TOKEN');
    expect(SECRET_VARIABLES).not.toContain('PORT');
  });

  it('lists every exported agent_relay_ series', async () => {
    const { body } = await createMetrics({ defaultMetrics: false }).render();
    const names = [...body.matchAll(/^# TYPE agent_relay_(\w+) /gm)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(10);
    const documented = section('Metrics');
    for (const name of names) expect(documented).toContain(`\`${name}\``);
  });
});
