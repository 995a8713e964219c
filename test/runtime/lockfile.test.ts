/**
 * `npm ci` on a fresh clone installs exactly what package-lock.json says. This asks npm itself
 * (offline, lockfile only, in a scratch copy) whether that lockfile matches package.json, and
 * whether package.json's `engines` and every package in the lockfile accept the Node running the
 * tests. CI runs it on Node 24 (the container's) and on Node 22 (the oldest `engines` accepts).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/child-process.js';

const dir = mkdtempSync(join(tmpdir(), 'relay-lockfile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('package-lock.json', () => {
  it('is in step with package.json, and no locked package refuses this Node', () => {
    for (const file of ['package.json', 'package-lock.json']) {
      copyFileSync(join(ROOT, file), join(dir, file));
    }
    const npm = spawnSync(
      'npm',
      [
        'install',
        '--package-lock-only',
        '--engine-strict',
        '--offline',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        '--cache',
        join(dir, 'cache'),
      ],
      { cwd: dir, encoding: 'utf8', timeout: 60_000 },
    );
    const output = `${npm.stdout}\n${npm.stderr}`;
    expect(output).not.toContain('EBADENGINE');
    expect(npm.status, output).toBe(0);
    // Nothing to resolve: the lockfile already says what package.json asks for.
    expect(readFileSync(join(dir, 'package-lock.json'), 'utf8')).toBe(
      readFileSync(join(ROOT, 'package-lock.json'), 'utf8'),
    );
  });

  it('allows the install scripts of exactly the locked packages that have one', () => {
    // npm 11 warns about every install script package.json's allowScripts does not cover
    // (and still runs it); the warning reads like a failed build, and a new one is worth a look.
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      allowScripts?: Record<string, boolean>;
    };
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript === true)
      .map(([path]) => path.replace(/^.*node_modules\//, ''));
    expect(withScripts.length).toBeGreaterThan(0);
    expect(Object.keys(pkg.allowScripts ?? {}).sort()).toEqual([...new Set(withScripts)].sort());
  });
});
