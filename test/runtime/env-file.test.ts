/**
 * A developer's `.env` (which the README suggests) is read by the CLI, and changes nothing in the
 * tests: the child processes they start get `cleanEnv`, which sets every variable agent-relay
 * reads, so the file fills in none of them.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, ROOT } from '../helpers/child-process.js';

const dir = mkdtempSync(join(tmpdir(), 'relay-env-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(
  join(dir, '.env'),
  [
    'PORT=not-a-port',
    'SLACK_BOT_TOKEN=xoxb-dummy',
    'GITHUB_WEBHOOK_SECRET=dummy',
    'AGENT_API_URL=http://127.0.0.1:9/api/v1',
    'LOG_LEVEL=debug',
  ].join('\n') + '\n',
);

/** `agent-relay migrate` run in `dir`, where the `.env` lies. */
function migrate(env: Record<string, string>) {
  const child = spawnSync(process.execPath, [join(ROOT, 'bin/agent-relay.js'), 'migrate'], {
    cwd: dir,
    env,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: child.status, output: child.stdout + child.stderr };
}

describe('a .env in the working directory', () => {
  it('is read by the CLI for the variables the environment leaves unset', () => {
    const { PATH = '', HOME = '' } = process.env;
    const { code, output } = migrate({ PATH, HOME, DATABASE_URL: join(dir, 'read.db') });
    expect(code).toBe(1);
    expect(output).toContain('PORT: must be a whole number');
    expect(output).toContain('AGENT_API_KEY:');
  });

  it('changes nothing for a child started with cleanEnv', () => {
    const { code, output } = migrate(
      cleanEnv({ DATABASE_URL: join(dir, 'clean.db'), LOG_LEVEL: 'silent' }),
    );
    expect(output).not.toContain('Invalid configuration');
    expect(code).toBe(0);
  });
});
