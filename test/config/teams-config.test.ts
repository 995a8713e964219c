/** Teams' variables: what turns it on, what it requires, nothing printed. */
import { describe, expect, it } from 'vitest';
import { loadConfig, redactedConfig } from '../../src/config/load.js';
import { expectOffUnless, issuesOf } from './config-issues.js';

const APP = '11111111-2222-3333-4444-555555555555';
const TENANT = 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee';
const PASSWORD = 'teams-app-password-dummy-0123';
const ENV = { TEAMS_APP_ID: APP, TEAMS_TENANT_ID: TENANT, TEAMS_ALLOWED_TENANTS: TENANT };
const BASE = {
  TEAMS_APP_ID: APP,
  TEAMS_APP_PASSWORD: PASSWORD,
  TEAMS_TENANT_ID: TENANT,
  TEAMS_ALLOWED_TENANTS: TENANT.toUpperCase(),
};

describe('Teams configuration', () => {
  it('is off unless TEAMS_APP_ID is set; other TEAMS_ variables alone are a note', () => {
    expectOffUnless('teams', 'TEAMS_APP_ID', { TEAMS_APP_PASSWORD: PASSWORD });
  });

  it('on with its app, secret, tenant and allowed tenants; closed by default', () => {
    expect(loadConfig(BASE).teams).toEqual({
      appId: APP,
      credential: { kind: 'secret', appPassword: PASSWORD },
      tenantId: TENANT,
      allowedTenants: [TENANT],
      allowedUsers: [],
      allowedChannels: [],
      adminUsers: [],
      allowGuests: false,
      botHandle: 'agent-relay',
      cloud: 'public',
    });
    expect(loadConfig({ ...BASE, TEAMS_CLOUD: 'USGov' }).teams?.cloud).toBe('usgov');
  });

  it('requires the secret, the tenant and the allowed tenants with the app id', () => {
    const issues = issuesOf({ TEAMS_APP_ID: APP });
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^TEAMS_APP_PASSWORD: required/),
        expect.stringMatching(/^TEAMS_TENANT_ID: required/),
        expect.stringMatching(/^TEAMS_ALLOWED_TENANTS: required/),
      ]),
    );
    expect(issuesOf({ ...BASE, TEAMS_ALLOWED_TENANTS: 'contoso' }).join('\n')).toMatch(
      /TEAMS_ALLOWED_TENANTS: must be comma-separated Entra tenant ids/,
    );
    expect(issuesOf({ ...BASE, TEAMS_CLOUD: 'Mars' }).join('\n')).toMatch(/TEAMS_CLOUD/);
  });

  it('never prints the app password', () => {
    const printed = JSON.stringify(redactedConfig(loadConfig(BASE)));
    expect(printed).not.toContain(PASSWORD);
    expect(printed).toContain(APP);
  });

  it('a managed identity stands in for TEAMS_APP_PASSWORD: one of the two, never both', () => {
    const on = loadConfig({ ...ENV, TEAMS_MANAGED_IDENTITY_CLIENT_ID: APP });
    expect(on.teams?.credential).toEqual({
      kind: 'managed-identity',
      clientId: APP,
    });
    expect(
      loadConfig({ ...ENV, TEAMS_MANAGED_IDENTITY_CLIENT_ID: ' System ' }).teams?.credential,
    ).toEqual({ kind: 'managed-identity', clientId: 'system' });
    expect(loadConfig({ ...ENV, TEAMS_APP_PASSWORD: PASSWORD }).teams?.credential).toEqual({
      kind: 'secret',
      appPassword: PASSWORD,
    });
    expect(issuesOf(ENV)).toEqual([
      expect.stringMatching(
        /^TEAMS_APP_PASSWORD: required with TEAMS_APP_ID \(Teams\), unless TEAMS_MANAGED_IDENTITY_CLIENT_ID/,
      ),
    ]);
    expect(
      issuesOf({
        ...ENV,
        TEAMS_APP_PASSWORD: PASSWORD,
        TEAMS_MANAGED_IDENTITY_CLIENT_ID: 'system',
      }),
    ).toEqual([expect.stringMatching(/^TEAMS_MANAGED_IDENTITY_CLIENT_ID: set .* not both/)]);
    expect(issuesOf({ ...ENV, TEAMS_MANAGED_IDENTITY_CLIENT_ID: 'my-identity' })).toEqual([
      expect.stringMatching(/^TEAMS_MANAGED_IDENTITY_CLIENT_ID: must be a managed identity/),
    ]);
    // Alone, as the other TEAMS_ variables: a note, Teams off.
    const off = loadConfig({ TEAMS_MANAGED_IDENTITY_CLIENT_ID: 'system' });
    expect(off.teams).toBeUndefined();
    expect(off.notes.join('\n')).toContain('TEAMS_APP_ID is not');
  });
});
