/**
 * The sample alert rules and the Grafana dashboard in docs/ parse, and every agent_relay_
 * series they query is one the service exports (so a renamed series cannot leave them blind).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createMetrics } from '../../src/service/metrics.js';

const read = (name: string) => readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8');

async function exported(): Promise<Set<string>> {
  const { body } = await createMetrics({ defaultMetrics: false }).render();
  const names = new Set<string>();
  for (const [, name, type] of body.matchAll(/^# TYPE (agent_relay_\w+) (\w+)$/gm)) {
    names.add(name!);
    if (type === 'histogram') for (const s of ['_bucket', '_sum', '_count']) names.add(name! + s);
  }
  return names;
}

const seriesIn = (text: string) => [...new Set(text.match(/agent_relay_\w+/g) ?? [])];

describe('monitoring samples in docs/', () => {
  it('the alert rules are valid YAML and query exported series, the given-up ones included', async () => {
    const rules = parse(read('prometheus-alerts.yml')) as {
      groups: { rules: { alert: string; expr: string }[] }[];
    };
    const exprs = rules.groups.flatMap((g) => g.rules.map((r) => r.expr)).join('\n');
    const names = await exported();
    for (const series of seriesIn(exprs)) expect(names, series).toContain(series);
    for (const wanted of [
      'agent_relay_outbox_parked',
      'agent_relay_inbox_failed',
      'agent_relay_outbox_oldest_waiting_seconds',
      'agent_relay_inbox_oldest_waiting_seconds',
    ])
      expect(exprs).toContain(wanted);
  });

  it('the dashboard is valid JSON whose panels query exported series', async () => {
    const dashboard = JSON.parse(read('grafana-dashboard.json')) as {
      panels: { title: string; targets: { expr: string }[] }[];
    };
    const exprs = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr)).join('\n');
    const names = await exported();
    const used = seriesIn(exprs);
    expect(used.length).toBeGreaterThan(8);
    for (const series of used) expect(names, series).toContain(series);
    expect(exprs).toContain('agent_relay_outbox_parked');
    expect(exprs).toContain('agent_relay_inbox_oldest_waiting_seconds');
  });
});
