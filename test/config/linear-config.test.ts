/** Linear's variables: what turns it on, what each way of answering needs, nothing printed. */
import { describe, expect, it } from 'vitest';
import { loadConfig, redactedConfig } from '../../src/config/load.js';
import { expectOffUnless, issuesOf } from './config-issues.js';

const KEY = Buffer.alloc(32, 9).toString('base64');
const SECRET = 'linear-webhook-secret-0123';

describe('Linear configuration', () => {
  it('is off unless LINEAR_WEBHOOK_SECRET is set; a token alone is a note', () => {
    expectOffUnless('linear', 'LINEAR_WEBHOOK_SECRET', { LINEAR_ACCESS_TOKEN: 'lin_oauth_x' });
  });

  it('one workspace: the secret and a token; teams and the API as given', () => {
    const config = loadConfig({
      LINEAR_WEBHOOK_SECRET: SECRET,
      LINEAR_ACCESS_TOKEN: 'lin_oauth_x',
      LINEAR_ALLOWED_TEAMS: 'ENG, OPS',
      LINEAR_API_URL: 'http://127.0.0.1:9/graphql',
    });
    expect(config.linear).toEqual({
      webhookSecret: SECRET,
      token: 'lin_oauth_x',
      apiUrl: 'http://127.0.0.1:9/graphql',
      allowedTeams: ['ENG', 'OPS'],
      allowedOrganizations: [],
    });
    const printed = JSON.stringify(redactedConfig(config));
    expect(printed).not.toContain(SECRET);
    expect(printed).not.toContain('lin_oauth_x');
  });

  it('LINEAR_API_URL carries the token, so it is https (plain http only on loopback)', () => {
    const base = { LINEAR_WEBHOOK_SECRET: SECRET, LINEAR_ACCESS_TOKEN: 'lin_oauth_x' };
    expect(issuesOf({ ...base, LINEAR_API_URL: 'http://linear.example.com/graphql' })).toEqual([
      expect.stringContaining('LINEAR_API_URL: must be an https URL'),
    ]);
    for (const url of ['https://linear.example.com/graphql', 'http://localhost:4000/graphql'])
      expect(loadConfig({ ...base, LINEAR_API_URL: url }).linear?.apiUrl).toBe(url);
  });

  it('the secret without a token or OAuth is a problem, and so is a short secret', () => {
    expect(issuesOf({ LINEAR_WEBHOOK_SECRET: SECRET })).toEqual([
      expect.stringContaining('LINEAR_ACCESS_TOKEN: LINEAR_WEBHOOK_SECRET enables Linear'),
    ]);
    expect(issuesOf({ LINEAR_WEBHOOK_SECRET: 'short', LINEAR_ACCESS_TOKEN: 't' })).toEqual([
      expect.stringContaining('LINEAR_WEBHOOK_SECRET: must be at least 16 characters'),
    ]);
  });

  it('OAuth install needs the client secret, a sealing key, the webhook secret and an allowlist', () => {
    const issues = issuesOf({ LINEAR_CLIENT_ID: 'client' });
    for (const name of [
      'LINEAR_CLIENT_SECRET',
      'LINEAR_TOKEN_ENCRYPTION_KEY',
      'LINEAR_WEBHOOK_SECRET',
      'LINEAR_ALLOWED_ORGANIZATIONS',
    ])
      expect(issues).toContain(`${name}: required with LINEAR_CLIENT_ID (OAuth install)`);
    const config = loadConfig({
      LINEAR_WEBHOOK_SECRET: SECRET,
      LINEAR_CLIENT_ID: 'client',
      LINEAR_CLIENT_SECRET: 'client-secret-0123456789',
      LINEAR_TOKEN_ENCRYPTION_KEY: KEY,
      LINEAR_ALLOWED_ORGANIZATIONS: 'org-1,acme',
    });
    expect(config.linear?.token).toBeUndefined();
    expect(config.linear?.oauth).toEqual({
      clientId: 'client',
      clientSecret: 'client-secret-0123456789',
      encryptionKey: KEY,
      allowedOrganizations: ['org-1', 'acme'],
    });
    expect(JSON.stringify(redactedConfig(config))).not.toContain('client-secret-0123456789');
  });

  it('a client secret cut short is told the rule, not only what it should be', () => {
    for (const name of ['LINEAR_CLIENT_SECRET', 'SLACK_CLIENT_SECRET'])
      expect(issuesOf({ [name]: 'cut-short' })).toContain(
        `${name}: must be at least 16 characters: the app's whole client secret, as its settings page shows it`,
      );
  });
});
