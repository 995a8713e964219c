/** OAuth install (any number of workspaces): which variables turn it on, and what each needs. */
import { describe, expect, it } from 'vitest';
import { loadConfig, redactedConfig } from '../../src/config/load.js';
import { issuesOf } from './config-issues.js';

const KEY = Buffer.alloc(32, 7).toString('base64');
const OAUTH = {
  SLACK_SIGNING_SECRET: 'signing-secret',
  SLACK_CLIENT_ID: '1111111111.2222222222',
  SLACK_CLIENT_SECRET: 'client-secret-0123456789',
  SLACK_STATE_SECRET: 'state-secret-0123456789',
  SLACK_TOKEN_ENCRYPTION_KEY: KEY,
  SLACK_ALLOW_ANY_WORKSPACE: '1',
};

describe('Slack OAuth install', () => {
  it('turns Slack on without a bot token, and keeps one as the fallback when given', () => {
    const config = loadConfig(OAUTH);
    expect(config.slack?.oauth).toEqual({
      clientId: '1111111111.2222222222',
      clientSecret: 'client-secret-0123456789',
      stateSecret: 'state-secret-0123456789',
      encryptionKey: KEY,
    });
    expect(config.slack?.botToken).toBeUndefined();
    expect(loadConfig({ ...OAUTH, SLACK_BOT_TOKEN: 'xoxb-1' }).slack?.botToken).toBe('xoxb-1');
  });

  it('stays off with only the client id and secret (they may serve sign-in elsewhere)', () => {
    const config = loadConfig({
      SLACK_CLIENT_ID: OAUTH.SLACK_CLIENT_ID,
      SLACK_CLIENT_SECRET: OAUTH.SLACK_CLIENT_SECRET,
    });
    expect(config.slack).toBeUndefined();
  });

  it('names each missing or malformed piece', () => {
    expect(issuesOf({ SLACK_STATE_SECRET: OAUTH.SLACK_STATE_SECRET })).toEqual(
      expect.arrayContaining([
        'SLACK_CLIENT_ID: required with SLACK_STATE_SECRET (OAuth install)',
        'SLACK_CLIENT_SECRET: required with SLACK_STATE_SECRET (OAuth install)',
        'SLACK_TOKEN_ENCRYPTION_KEY: required with SLACK_STATE_SECRET (OAuth install)',
        'SLACK_SIGNING_SECRET: required with SLACK_STATE_SECRET (OAuth install)',
      ]),
    );
    expect(issuesOf({ ...OAUTH, SLACK_TOKEN_ENCRYPTION_KEY: 'c2hvcnQ=' })).toEqual([
      'SLACK_TOKEN_ENCRYPTION_KEY: must be 32 random bytes, base64 (openssl rand -base64 32)',
    ]);
    expect(issuesOf({ ...OAUTH, SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1' })).toEqual([
      'SLACK_APP_TOKEN: OAuth install answers over HTTP; unset it (no Socket Mode)',
    ]);
  });

  it('takes an explicit choice of workspaces: a list, or any workspace; never neither, never both', () => {
    const { SLACK_ALLOW_ANY_WORKSPACE: _any, ...withoutChoice } = OAUTH;
    expect(issuesOf(withoutChoice)).toEqual([
      'SLACK_ALLOWED_TEAMS: required with SLACK_STATE_SECRET (OAuth install): list the team ids (T…) ' +
        'and Enterprise Grid organisation ids (E…) that may install the app, or set ' +
        'SLACK_ALLOW_ANY_WORKSPACE=1 to let any Slack workspace install it',
    ]);
    const listed = loadConfig({ ...withoutChoice, SLACK_ALLOWED_TEAMS: 'T0000001, E0000009' });
    expect(listed.slack).toMatchObject({
      allowedTeams: ['T0000001', 'E0000009'],
      allowAnyWorkspace: false,
    });
    expect(loadConfig(OAUTH).slack).toMatchObject({ allowedTeams: [], allowAnyWorkspace: true });
    expect(issuesOf({ ...OAUTH, SLACK_ALLOWED_TEAMS: 'T0000001' })).toEqual([
      'SLACK_ALLOW_ANY_WORKSPACE: set SLACK_ALLOWED_TEAMS or SLACK_ALLOW_ANY_WORKSPACE, not both',
    ]);
    expect(issuesOf({ ...withoutChoice, SLACK_ALLOWED_TEAMS: 'C0000001' })).toEqual([
      'SLACK_ALLOWED_TEAMS: must be comma-separated Slack team ids (T0123…) or Enterprise Grid organisation ids (E0123…)',
    ]);
  });

  it('never prints the client secret, the state secret or the key', () => {
    const printed = JSON.stringify(redactedConfig(loadConfig(OAUTH)));
    for (const secret of [OAUTH.SLACK_CLIENT_SECRET, OAUTH.SLACK_STATE_SECRET, KEY])
      expect(printed).not.toContain(secret);
  });
});
