/**
 * Teams for the operator: the start-up block's line (on with its endpoint, app and tenants, or
 * off saying what turns it on) and `doctor` asking Entra for the bot's Bot Connector token
 * (the fake's token endpoint): accepted, or rejected without printing the secret.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { FAST_TIMINGS, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { startFakeImds, type FakeImds } from '../../src/fakes/azure-imds.js';
import {
  FAKE_TEAMS_APP_ID,
  FAKE_TEAMS_APP_PASSWORD,
  FAKE_TEAMS_TENANT,
  startFakeTeams,
  type FakeTeams,
} from '../../src/fakes/teams-connector.js';
import { runDoctor } from '../../src/service/doctor.js';
import { describeStartup } from '../../src/service/startup-report.js';

const TEAMS_ENV = {
  TEAMS_APP_ID: FAKE_TEAMS_APP_ID,
  TEAMS_APP_PASSWORD: FAKE_TEAMS_APP_PASSWORD,
  TEAMS_TENANT_ID: FAKE_TEAMS_TENANT,
  TEAMS_ALLOWED_TENANTS: FAKE_TEAMS_TENANT,
};

const dir = mkdtempSync(join(tmpdir(), 'relay-teams-doctor-'));
let teams: FakeTeams;
let emulator: Emulator;
let imds: FakeImds;
const podIdentityHost = process.env.AZURE_POD_IDENTITY_AUTHORITY_HOST;
beforeAll(async () => {
  [teams, emulator, imds] = await Promise.all([
    startFakeTeams(),
    startEmulator({ apiKey: 'agent-key-ok', timings: FAST_TIMINGS }),
    startFakeImds({ identities: [FAKE_TEAMS_APP_ID], tenant: FAKE_TEAMS_TENANT }),
  ]);
  process.env.AZURE_POD_IDENTITY_AUTHORITY_HOST = imds.url;
});
afterAll(async () => {
  if (podIdentityHost === undefined) delete process.env.AZURE_POD_IDENTITY_AUTHORITY_HOST;
  else process.env.AZURE_POD_IDENTITY_AUTHORITY_HOST = podIdentityHost;
  await Promise.all([teams.close(), emulator.close(), imds.close()]);
  rmSync(dir, { recursive: true, force: true });
});

async function doctor(env: Record<string, string>) {
  const lines: string[] = [];
  const code = await runDoctor({
    env: {
      DATABASE_URL: join(dir, 'doctor.db'),
      AGENT_API_URL: emulator.baseUrl,
      AGENT_API_KEY: 'agent-key-ok',
      ...env,
    },
    out: (line) => lines.push(line),
    timeoutMs: 3_000,
    teamsLoginEndpoint: teams.url,
  });
  return { code, text: lines.join('\n') };
}

const FACTS = { url: 'http://127.0.0.1:3000', host: '127.0.0.1', agentUrl: '' };
const teamsLine = (text: string) => text.split('\n').find((l) => l.includes(' teams ')) ?? '';

describe('Teams for the operator', () => {
  it('the start-up block says whether Teams is on, and where its endpoint is', () => {
    const off = describeStartup(loadConfig({}), FACTS).lines.join('\n');
    expect(off).toMatch(/ {2}teams: {9}off \(set TEAMS_APP_ID with TEAMS_APP_PASSWORD/);
    const on = describeStartup(loadConfig(TEAMS_ENV), FACTS);
    expect(on.lines.join('\n')).toContain(
      `  teams:         on (POST http://127.0.0.1:3000/teams/messages, app ${FAKE_TEAMS_APP_ID}, token from client secret (TEAMS_APP_PASSWORD), tenants ${FAKE_TEAMS_TENANT}, anyone anywhere, cloud public)`,
    );
    expect(on.fields).toMatchObject({ teams: 'bot' });
    expect(on.lines.join('\n')).not.toContain(FAKE_TEAMS_APP_PASSWORD);
  });

  it('doctor asks Entra for the bot token: accepted, or rejected without printing the secret', async () => {
    const good = await doctor(TEAMS_ENV);
    expect(teamsLine(good.text)).toMatch(/✔ teams +TEAMS_APP_PASSWORD accepted by http:\/\/127/);
    expect(good.code).toBe(0);
    const wrong = 'teams-app-password-dummy-WRONG';
    const bad = await doctor({ ...TEAMS_ENV, TEAMS_APP_PASSWORD: wrong });
    expect(teamsLine(bad.text)).toMatch(
      /✘ teams +TEAMS_APP_ID and TEAMS_APP_PASSWORD were rejected/,
    );
    expect(bad.text).not.toContain(wrong);
    expect(bad.code).toBe(1);
  });

  it('doctor and the start-up block say the token comes from the managed identity', async () => {
    // The SDK asks the fake identity endpoint (MSAL's AZURE_POD_IDENTITY_AUTHORITY_HOST).
    const { TEAMS_APP_PASSWORD: _secret, ...rest } = TEAMS_ENV;
    const env = { ...rest, TEAMS_MANAGED_IDENTITY_CLIENT_ID: FAKE_TEAMS_APP_ID };
    expect(describeStartup(loadConfig(env), FACTS).lines.join('\n')).toContain(
      `app ${FAKE_TEAMS_APP_ID}, token from user-assigned managed identity (TEAMS_MANAGED_IDENTITY_CLIENT_ID), tenants`,
    );
    const { code, text } = await doctor(env);
    expect(teamsLine(text)).toMatch(
      /✔ teams +user-assigned managed identity \(TEAMS_MANAGED_IDENTITY_CLIENT_ID\): a Bot Connector token/,
    );
    expect(code).toBe(0);
  });
});
