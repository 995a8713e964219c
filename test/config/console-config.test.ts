/** When the console is on, who may sign in to it, and what its settings require. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load.js';

const REMOTE = { AGENT_API_URL: 'https://agents.example.com/api/v1', AGENT_API_KEY: 'k' };
const SLACK = { SLACK_CLIENT_ID: '1.2', SLACK_CLIENT_SECRET: 'dummy-slack-client-secret' };
const GITHUB = { GITHUB_CLIENT_ID: 'Iv1.x', GITHUB_CLIENT_SECRET: 'github-secret' };

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return err.issues.map((i) => `${i.variable}: ${i.message}`);
  }
}

describe('the console configuration', () => {
  it('is on with the local admin link on the embedded default, off with a real service', () => {
    expect(loadConfig({}).console?.adminLink).toBe(true);
    expect(loadConfig(REMOTE).console).toBeUndefined();
    expect(loadConfig({ CONSOLE_ENABLED: '0' }).console).toBeUndefined();
    expect(loadConfig({ ...REMOTE, CONSOLE_ADMIN_LINK: '1' }).console?.adminLink).toBe(true);
  });

  it('turns Slack and GitHub sign-in on with an allowlist, and needs the client then', () => {
    const c = loadConfig({
      ...REMOTE,
      ...SLACK,
      ...GITHUB,
      CONSOLE_SLACK_TEAMS: 'T0001, T0002',
      CONSOLE_GITHUB_ORGS: 'acme',
      CONSOLE_PUBLIC_URL: 'https://relay.example.com/',
    }).console;
    expect(c?.adminLink).toBe(false);
    expect(c?.publicUrl).toBe('https://relay.example.com');
    expect(c?.slack).toMatchObject({ clientId: '1.2', teams: ['T0001', 'T0002'], users: [] });
    expect(c?.slack?.baseUrl).toBe('https://slack.com');
    expect(c?.github).toMatchObject({ orgs: ['acme'], webUrl: 'https://github.com' });

    expect(problems({ ...REMOTE, CONSOLE_SLACK_USERS: 'U1' })).toEqual([
      'SLACK_CLIENT_ID: required with CONSOLE_SLACK_TEAMS / _USERS',
      'SLACK_CLIENT_SECRET: required with CONSOLE_SLACK_TEAMS / _USERS',
    ]);
    expect(problems({ ...REMOTE, CONSOLE_GITHUB_USERS: 'octocat', GITHUB_CLIENT_ID: 'x' })).toEqual(
      ['GITHUB_CLIENT_SECRET: required with CONSOLE_GITHUB_ORGS / _USERS'],
    );
  });

  it('leaves the console alone when only the client ids are set (they also serve the Slack app)', () => {
    expect(loadConfig({ ...REMOTE, ...SLACK, ...GITHUB }).console).toBeUndefined();
  });

  it('refuses a console nobody could sign in to, and bad values, without echoing secrets', () => {
    expect(problems({ ...REMOTE, CONSOLE_ENABLED: '1' })[0]).toMatch(
      /^CONSOLE_ENABLED: nobody could sign in/,
    );
    const bad = problems({
      CONSOLE_SESSION_SECRET: 'short-secret',
      CONSOLE_SLACK_TEAMS: 'not a team',
    });
    expect(bad).toContain('CONSOLE_SESSION_SECRET: must be at least 32 characters');
    expect(bad.join('\n')).not.toContain('short-secret');
    expect(bad.some((p) => p.startsWith('CONSOLE_SLACK_TEAMS: must be comma-separated'))).toBe(
      true,
    );
  });
});
