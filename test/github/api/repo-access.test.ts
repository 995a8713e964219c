/**
 * The RepoAccess port on GitHub, against the fake GitHub REST API on loopback (token auth):
 * roles compared with the minimum, answers cached per (repository, person) for a while and
 * bounded, failures never allowed and never cached.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RepoPermission } from '../../../src/core/ports/index.js';
import { createGitHubClients } from '../../../src/github/api/github-client.js';
import { createGitHubRepoAccess, roleOf } from '../../../src/github/api/repo-access.js';
import { startFakeGitHub, type FakeGitHub } from '../../../src/fakes/github-rest-api.js';
import { createRecordingLogger } from '../../helpers/test-logger.js';

let api: FakeGitHub | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function setup(options: { minimum?: RepoPermission; maxEntries?: number } = {}) {
  api = await startFakeGitHub({ token: 'ghp_access' });
  let now = 1_000_000;
  const clock = { now: () => now, advance: (ms: number) => (now += ms) };
  const logger = createRecordingLogger();
  const clients = createGitHubClients({
    auth: { kind: 'token', token: 'ghp_access' },
    apiUrl: api.url,
    logger,
    clock,
    retries: 0,
  });
  const access = createGitHubRepoAccess({
    clients,
    minimum: options.minimum ?? 'write',
    clock,
    logger,
    ttlMs: 60_000,
    ...(options.maxEntries === undefined ? {} : { maxEntries: options.maxEntries }),
  });
  const check = (login: string, repo = 'widgets') =>
    access.check({ owner: 'octo-org', repo, login });
  return { api, access, check, clock, logger };
}

describe('GitHub repository access', () => {
  it.each([
    ['admin', 'write', 'allowed'],
    ['maintain', 'write', 'allowed'],
    ['write', 'write', 'allowed'],
    ['triage', 'write', 'refused'],
    ['read', 'write', 'refused'],
    ['none', 'write', 'refused'],
    ['missing', 'write', 'refused'],
    ['triage', 'triage', 'allowed'],
    ['read', 'triage', 'refused'],
    ['write', 'maintain', 'refused'],
    ['maintain', 'admin', 'refused'],
    ['read', 'read', 'allowed'],
  ] as const)('%s against a %s minimum: %s', async (role, minimum, kind) => {
    const { api, check } = await setup({ minimum });
    api.setPermission('octo-org', 'widgets', 'pat', role);
    expect((await check('pat')).kind).toBe(kind);
  });

  it('reads the role, and the base permission when the role is a custom one', () => {
    expect(roleOf({ permission: 'write', role_name: 'maintain' })).toBe('maintain');
    expect(roleOf({ permission: 'read', role_name: 'triage' })).toBe('triage');
    expect(roleOf({ permission: 'write', role_name: 'release-manager' })).toBe('write');
    expect(roleOf({ permission: 'none' })).toBe('none');
    expect(roleOf({ permission: 'something-new' })).toBe('none');
  });

  it('asks once per person and repository while the answer is fresh; concurrent questions share one request', async () => {
    const { api, check, clock } = await setup();
    api.setPermission('octo-org', 'widgets', 'pat', 'read');
    const answers = await Promise.all([check('pat'), check('PAT'), check('pat')]);
    expect(answers.map((a) => a.kind)).toEqual(['refused', 'refused', 'refused']);
    await check('pat');
    expect(api.permissionLookups).toEqual(['octo-org/widgets:pat']);
    await check('pat', 'gadgets');
    expect(api.permissionLookups).toHaveLength(2);
    // A promotion is seen once the cached answer runs out.
    api.setPermission('octo-org', 'widgets', 'pat', 'write');
    expect((await check('pat')).kind).toBe('refused');
    clock.advance(60_001);
    expect(await check('pat')).toEqual({ kind: 'allowed', role: 'write' });
    expect(api.permissionLookups).toHaveLength(3);
  });

  it('keeps a bounded number of answers, forgetting the oldest', async () => {
    const { api, check } = await setup({ maxEntries: 2 });
    await check('a');
    await check('b');
    await check('c');
    await check('c');
    await check('b');
    expect(api.permissionLookups).toHaveLength(3);
    await check('a'); // forgotten: asked again
    expect(api.permissionLookups).toHaveLength(4);
  });

  it('a 5xx or a 401 is unknown (never allowed), logged, and asked again next time', async () => {
    const { api, check, logger } = await setup();
    api.failNext({ path: /\/permission$/, status: 502 });
    const first = await check('pat');
    expect(first.kind).toBe('unknown');
    api.failNext({ path: /\/permission$/, status: 401 });
    expect((await check('pat')).kind).toBe('unknown');
    expect(
      logger.lines.filter((l) => l.msg?.includes('could not check repository access')),
    ).toHaveLength(2);
    // Not cached: GitHub answering again is believed at once.
    expect(await check('pat')).toEqual({ kind: 'allowed', role: 'write' });
  });
});
