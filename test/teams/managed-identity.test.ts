/**
 * The bot's token from an Azure managed identity instead of TEAMS_APP_PASSWORD: the Teams SDK
 * asks the identity endpoint (a local fake of Azure's instance metadata service, reached
 * through MSAL's documented AZURE_POD_IDENTITY_AUTHORITY_HOST) for the Bot Framework's token.
 * The configuration's rules are in test/config/teams-config.test.ts; doctor's line in
 * teams-operating.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { startFakeImds, type FakeImds } from '../../src/fakes/azure-imds.js';
import { FAKE_TEAMS_APP_ID, FAKE_TEAMS_TENANT } from '../../src/fakes/teams-connector.js';
import { silentLogger } from '../../src/service/logger.js';
import {
  cloudEndpoints,
  connectorCredential,
  createConnectorClient,
  TeamsApiError,
} from '../../src/teams/index.js';

const OTHER_IDENTITY = '5c1f0a9e-3b7d-4e2a-8f6c-1d0b9a8e7f6d';
const ENV = {
  TEAMS_APP_ID: FAKE_TEAMS_APP_ID,
  TEAMS_TENANT_ID: FAKE_TEAMS_TENANT,
  TEAMS_ALLOWED_TENANTS: FAKE_TEAMS_TENANT,
};

describe("the bot's token from a managed identity", () => {
  let imds: FakeImds;
  const before = process.env.AZURE_POD_IDENTITY_AUTHORITY_HOST;
  beforeAll(async () => {
    imds = await startFakeImds({ identities: [FAKE_TEAMS_APP_ID], tenant: FAKE_TEAMS_TENANT });
    process.env.AZURE_POD_IDENTITY_AUTHORITY_HOST = imds.url;
  });
  afterAll(async () => {
    if (before === undefined) delete process.env.AZURE_POD_IDENTITY_AUTHORITY_HOST;
    else process.env.AZURE_POD_IDENTITY_AUTHORITY_HOST = before;
    await imds.close();
  });

  const clientFor = (clientId: string) => {
    const config = loadConfig({ ...ENV, TEAMS_MANAGED_IDENTITY_CLIENT_ID: clientId });
    const cloud = cloudEndpoints('public');
    return createConnectorClient({
      ...connectorCredential(config.teams!, cloud, silentLogger()),
      appId: FAKE_TEAMS_APP_ID,
      tenantId: FAKE_TEAMS_TENANT,
      // Never asked: a managed identity's token does not come from a client secret.
      loginEndpoint: 'http://127.0.0.1:9',
      botScope: cloud.botScope,
      timeoutMs: 5_000,
    });
  };

  it("is asked of the host's identity endpoint, for the Bot Framework, as the bot's identity", async () => {
    const token = await clientFor(FAKE_TEAMS_APP_ID).token();
    expect(imds.requests).toHaveLength(1);
    expect(imds.requests[0]).toEqual({
      method: 'GET',
      path: expect.stringMatching(/^\/metadata\/identity\/oauth2\/token\/?$/),
      metadata: 'true',
      query: expect.objectContaining({
        'api-version': '2018-02-01',
        resource: 'https://api.botframework.com',
        client_id: FAKE_TEAMS_APP_ID,
      }),
    });
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
      aud: string;
    };
    expect(claims.aud).toBe('https://api.botframework.com');
  });

  it('refuses when the SDK would take CLIENT_SECRET from the environment instead', async () => {
    const had = process.env.CLIENT_SECRET;
    process.env.CLIENT_SECRET = 'sdk-client-secret-dummy';
    try {
      const refused = await clientFor(FAKE_TEAMS_APP_ID)
        .token()
        .catch((err: unknown) => err);
      expect(String((refused as Error).message)).toMatch(/CLIENT_SECRET/);
    } finally {
      if (had === undefined) delete process.env.CLIENT_SECRET;
      else process.env.CLIENT_SECRET = had;
    }
  });

  it('an identity the host does not have gets no token, and says so', async () => {
    const refused = await clientFor(OTHER_IDENTITY)
      .token()
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(TeamsApiError);
    expect(String((refused as Error).message)).toMatch(/managed identity/);
  });
});
