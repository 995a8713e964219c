/**
 * A first start of the CLI on a fresh database, as a newcomer meets it on a terminal: the
 * start-up report comes first, not buried under one line per migration, and says each fact
 * once; the console's one-time local link is read off the output and opened as printed (the
 * log scrubber masks every `token=` value in a message, so the link must come out in a form
 * it leaves whole).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../src/console/sign-in-routes.js';
import { cleanEnv, startChild } from '../helpers/child-process.js';
import type { Child } from '../helpers/child-process.js';

const dir = mkdtempSync(join(tmpdir(), 'relay-console-link-'));
const children: Child[] = [];
afterAll(() => {
  for (const child of children) child.signalGroup('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const start = (name: string, extra: Record<string, string> = {}) => {
  const child = startChild(
    process.execPath,
    ['--import', 'tsx', 'src/cli.ts', 'start'],
    cleanEnv({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: join(dir, `${name}.db`), ...extra }),
  );
  children.push(child);
  return child;
};

describe('a first start', () => {
  it('on a terminal: one line for the migrations, then the report, its facts said once', async () => {
    const child = start('pretty', { LOG_PRETTY: '1' });
    await waitFor(() => child.stdout().includes('operator console: open'));
    child.process.kill('SIGTERM');
    expect((await child.exited).code).toBe(0);
    const lines = child.stdout().split('\n');
    const entries = lines.filter((l) => /^\[[\d:.]+\] [A-Z]+: /.test(l));
    expect(entries[0]).toMatch(/INFO: database migrated: \d+ migrations applied \(001-initial … /);
    expect(entries[1]).toMatch(/INFO: agent-relay is listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(entries[2]).toMatch(/INFO: operator console: open /);
    expect(child.stdout()).not.toContain('migration applied');
    // Between the report's first line and the next entry: its own lines, no field after them.
    const report = lines.slice(lines.indexOf(entries[1]!) + 1, lines.indexOf(entries[2]!));
    expect(report.map((l) => /^ {2}([a-z ]+):/.exec(l)?.[1])).toEqual([
      'database',
      'agent service',
      'slack',
      'github',
      'linear',
      'jira',
      'teams',
      'tracker',
      'health',
    ]);
  });

  it('prints the console link so that it signs in once when opened as printed', async () => {
    const child = start('link');
    const line = await child.waitForLine(
      (l) => typeof l.msg === 'string' && l.msg.startsWith('operator console: open '),
    );
    const link = /open (\S+) /.exec(line.msg as string)?.[1] ?? '';
    expect(link).not.toContain('***');
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/console\/signin\/local\//);

    const first = await fetch(link, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/console');
    const cookie = first.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    expect(cookie).toBeDefined();
    const home = await fetch(new URL('/console', link), {
      redirect: 'manual',
      headers: { cookie: cookie!.split(';')[0]! },
    });
    expect(home.status).toBe(200);
    // One use: the same link again is refused.
    expect((await fetch(link, { redirect: 'manual' })).status).toBe(403);

    child.process.kill('SIGTERM');
    expect((await child.exited).code).toBe(0);
  });
});

async function waitFor(probe: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
