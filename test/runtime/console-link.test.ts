/**
 * The console's one-time local link, as a newcomer meets it: read off the start-up output of
 * the CLI and opened as printed. The log scrubber masks every `token=` value in a message, so
 * the link must come out in a form it leaves whole.
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

describe('the console link printed at start-up', () => {
  it('signs in once when opened as printed, on this machine', async () => {
    const child = startChild(
      process.execPath,
      ['--import', 'tsx', 'src/cli.ts', 'start'],
      cleanEnv({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: join(dir, 'link.db') }),
    );
    children.push(child);
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
