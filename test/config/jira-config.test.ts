/** Jira's variables: what turns it on, what it requires, nothing printed. */
import { describe, expect, it } from 'vitest';
import { loadConfig, redactedConfig } from '../../src/config/load.js';
import { expectOffUnless, issuesOf } from './config-issues.js';

const SECRET = 'jira-webhook-secret-0123';
const TOKEN = 'ATATT-dummy-token';
const BASE = {
  JIRA_BASE_URL: 'https://acme.atlassian.net/',
  JIRA_EMAIL: 'relay@acme.test',
  JIRA_API_TOKEN: TOKEN,
  JIRA_WEBHOOK_SECRET: SECRET,
  JIRA_ALLOWED_PROJECTS: 'proj, OPS',
};

describe('Jira configuration', () => {
  it('is off unless JIRA_BASE_URL is set; other JIRA_ variables alone are a note', () => {
    expectOffUnless('jira', 'JIRA_BASE_URL', { JIRA_API_TOKEN: TOKEN });
  });

  it('one site: its host names the threads; defaults for the handle and label', () => {
    const config = loadConfig(BASE);
    expect(config.jira).toEqual({
      baseUrl: 'https://acme.atlassian.net',
      site: 'acme.atlassian.net',
      email: 'relay@acme.test',
      apiToken: TOKEN,
      webhookSecret: SECRET,
      allowedProjects: ['PROJ', 'OPS'],
      botHandle: 'agent-relay',
      triggerLabel: 'agent',
    });
    const printed = JSON.stringify(redactedConfig(config));
    expect(printed).not.toContain(SECRET);
    expect(printed).not.toContain(TOKEN);
  });

  it('a cloud id sends the calls through the gateway; the site still names the threads', () => {
    const jira = loadConfig({
      ...BASE,
      JIRA_CLOUD_ID: '1a11d016-8984-4c3e-b9ab-142dd06acb1b',
    }).jira;
    expect(jira).toMatchObject({
      baseUrl: 'https://acme.atlassian.net',
      site: 'acme.atlassian.net',
      restUrl: 'https://api.atlassian.com/ex/jira/1a11d016-8984-4c3e-b9ab-142dd06acb1b',
    });
    expect(issuesOf({ ...BASE, JIRA_CLOUD_ID: 'not/an id' })).toEqual([
      expect.stringContaining("JIRA_CLOUD_ID: must be the site's cloud id"),
    ]);
  });

  it('the optional account, transition, handle and label as given', () => {
    const config = loadConfig({
      ...BASE,
      JIRA_ACCOUNT_ID: '557058:f58131cb-b67d-43c7-b30d-6b58d40bd077',
      JIRA_START_TRANSITION: 'In Progress',
      JIRA_BOT_HANDLE: '@relay',
      JIRA_TRIGGER_LABEL: 'ai',
    });
    expect(config.jira).toMatchObject({
      accountId: '557058:f58131cb-b67d-43c7-b30d-6b58d40bd077',
      startTransition: 'In Progress',
      botHandle: 'relay',
      triggerLabel: 'ai',
    });
  });

  it('every credential and the allowed projects are required with the site', () => {
    expect(issuesOf({ JIRA_BASE_URL: 'https://acme.atlassian.net' })).toEqual([
      'JIRA_EMAIL: required with JIRA_BASE_URL (Jira)',
      'JIRA_API_TOKEN: required with JIRA_BASE_URL (Jira)',
      'JIRA_WEBHOOK_SECRET: required with JIRA_BASE_URL (Jira)',
      'JIRA_ALLOWED_PROJECTS: required with JIRA_BASE_URL (Jira)',
    ]);
    expect(issuesOf({ ...BASE, JIRA_WEBHOOK_SECRET: 'short' })).toEqual([
      expect.stringContaining('JIRA_WEBHOOK_SECRET: must be at least 16 characters'),
    ]);
    expect(issuesOf({ ...BASE, JIRA_ALLOWED_PROJECTS: 'PROJ,no way' })).toEqual([
      expect.stringContaining('JIRA_ALLOWED_PROJECTS: each must be a Jira project key'),
    ]);
  });

  it('JIRA_BASE_URL carries the token, so it is https (plain http only on loopback)', () => {
    expect(issuesOf({ ...BASE, JIRA_BASE_URL: 'http://jira.example.com' })).toEqual([
      expect.stringContaining('JIRA_BASE_URL: must be an https URL'),
    ]);
    const jira = loadConfig({ ...BASE, JIRA_BASE_URL: 'http://127.0.0.1:9' }).jira;
    expect(jira && !jira.oauth ? jira.site : undefined).toBe('127.0.0.1');
  });
});

describe('Jira through an OAuth app', () => {
  const KEY = Buffer.alloc(32, 3).toString('base64');
  const CLIENT_SECRET = 'jira-oauth-client-secret-0123';
  const OAUTH = {
    JIRA_CLIENT_ID: 'client-id',
    JIRA_CLIENT_SECRET: CLIENT_SECRET,
    JIRA_TOKEN_ENCRYPTION_KEY: KEY,
    JIRA_ALLOWED_SITES: 'https://Acme.atlassian.net/, globex.atlassian.net',
    JIRA_ALLOWED_PROJECTS: 'PROJ',
  };

  it('turns on with its client, a key, the allowed sites and projects; nothing secret printed', () => {
    const config = loadConfig({ ...OAUTH, CONSOLE_PUBLIC_URL: 'https://relay.example.com/' });
    expect(config.jira).toEqual({
      allowedProjects: ['PROJ'],
      botHandle: 'agent-relay',
      triggerLabel: 'agent',
      oauth: {
        clientId: 'client-id',
        clientSecret: CLIENT_SECRET,
        encryptionKey: KEY,
        allowedSites: ['acme.atlassian.net', 'globex.atlassian.net'],
        authUrl: 'https://auth.atlassian.com',
        apiUrl: 'https://api.atlassian.com',
        publicUrl: 'https://relay.example.com',
      },
    });
    const printed = JSON.stringify(redactedConfig(config));
    expect(printed).not.toContain(CLIENT_SECRET);
    expect(printed).not.toContain(KEY);
  });

  it('requires every part, and the allowed sites above all; not beside JIRA_BASE_URL', () => {
    expect(issuesOf({ JIRA_CLIENT_ID: 'client-id' })).toEqual([
      'JIRA_CLIENT_SECRET: required with JIRA_CLIENT_ID (Jira OAuth install)',
      'JIRA_TOKEN_ENCRYPTION_KEY: required with JIRA_CLIENT_ID (Jira OAuth install)',
      'JIRA_ALLOWED_SITES: required with JIRA_CLIENT_ID (Jira OAuth install)',
      'JIRA_ALLOWED_PROJECTS: required with JIRA_CLIENT_ID (Jira OAuth install)',
    ]);
    expect(issuesOf({ ...OAUTH, ...BASE })).toEqual([
      expect.stringContaining(
        'JIRA_BASE_URL: set JIRA_BASE_URL (one site, an API token) or JIRA_CLIENT_ID',
      ),
    ]);
    expect(issuesOf({ ...OAUTH, JIRA_ALLOWED_SITES: 'acme atlassian' })).toEqual([
      expect.stringContaining('JIRA_ALLOWED_SITES: each must be a Jira site host name'),
    ]);
    expect(issuesOf({ ...OAUTH, JIRA_TOKEN_ENCRYPTION_KEY: 'short' })).toEqual([
      expect.stringContaining('JIRA_TOKEN_ENCRYPTION_KEY: must be 32 random bytes'),
    ]);
    expect(issuesOf({ ...OAUTH, JIRA_AUTH_URL: 'http://auth.example.com' })).toEqual([
      expect.stringContaining('JIRA_AUTH_URL: must be an https URL'),
    ]);
  });
});
