/**
 * The checks `agent-relay doctor` runs, one per dependency: the database, the Agent Run
 * Service (reachability and key), Slack (auth.test), GitHub (the token or App credentials)
 * and, when they are on, Linear (whose the app token is), Jira (whose account answers) and
 * Teams (whether Entra gives the bot its Bot Connector token).
 * Each answers ok / fail / skip with one readable line; none prints a secret.
 */
import { createAppAuth } from '@octokit/auth-app';
import { Octokit } from '@octokit/rest';
import { z } from 'zod';
import { createAgentClient } from '../agent/index.js';
import { checkAgentKey } from './agent-key-check.js';
import type { Config, JiraConfig, LinearConfig, TeamsConfig } from '../config/load.js';
import { FAST_TIMINGS, startEmulator } from '../emulator/index.js';
import {
  describeDatabase,
  describeGitHub,
  describeJira,
  describeLinear,
  describeTeams,
  describeSlack,
} from './startup-report.js';
import { whoseToken } from '../linear/index.js';
import { networkErrorCode, networkReason } from '../core/network-reason.js';
import { createJiraClient, JiraApiError } from '../jira/index.js';
import {
  cloudEndpoints,
  connectorCredential,
  createConnectorClient,
  describeCredential,
  TeamsApiError,
} from '../teams/index.js';
import { silentLogger } from './logger.js';
import { openStore } from '../store/index.js';

export type CheckStatus = 'ok' | 'fail' | 'skip';
export interface CheckResult {
  status: CheckStatus;
  detail: string;
}
export interface DoctorCheck {
  name: string;
  run(): Promise<CheckResult>;
}

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const ok = (detail: string): CheckResult => ({ status: 'ok', detail });
const fail = (detail: string): CheckResult => ({ status: 'fail', detail });
const skip = (detail: string): CheckResult => ({ status: 'skip', detail });

export function doctorChecks(
  config: Config,
  timeoutMs: number,
  options: { teamsLoginEndpoint?: string } = {},
): DoctorCheck[] {
  const linear = config.linear;
  return [
    { name: 'database', run: () => checkDatabase(config) },
    { name: 'agent service', run: () => checkAgentService(config, timeoutMs) },
    { name: 'slack', run: () => checkSlack(config, timeoutMs) },
    { name: 'github', run: () => checkGitHub(config, timeoutMs) },
    // Off: skipped with how to turn it on, as in the start-up report.
    {
      name: 'linear',
      run: async () => (linear ? checkLinear(linear) : skip(describeLinear(config, ''))),
    },
    {
      name: 'jira',
      run: async () =>
        config.jira ? checkJira(config.jira, timeoutMs) : skip(describeJira(config, '')),
    },
    {
      name: 'teams',
      run: async () =>
        config.teams
          ? checkTeams(config.teams, timeoutMs, options.teamsLoginEndpoint)
          : skip(describeTeams(config, '')),
    },
  ];
}

async function checkTeams(
  teams: TeamsConfig,
  timeoutMs: number,
  loginEndpoint?: string,
): Promise<CheckResult> {
  const cloud = cloudEndpoints(teams.cloud);
  const login = loginEndpoint ?? cloud.loginEndpoint;
  // A managed identity's token is asked by the Teams SDK of the host's identity endpoint.
  const managed = teams.credential.kind === 'managed-identity';
  const credential = managed ? describeCredential(teams) : 'TEAMS_APP_PASSWORD';
  try {
    const client = createConnectorClient({
      ...connectorCredential(teams, cloud, silentLogger()),
      appId: teams.appId,
      tenantId: teams.tenantId,
      loginEndpoint: login,
      botScope: cloud.botScope,
      timeoutMs,
    });
    await client.token();
    return ok(
      `${credential}${managed ? '' : ` accepted by ${login} (tenant ${teams.tenantId})`}: a Bot Connector token for app ${teams.appId}`,
    );
  } catch (err) {
    if (managed) return fail(`${credential}: no Bot Connector token (${errorText(err)})`);
    if (err instanceof TeamsApiError && err.status >= 400 && err.status < 500)
      return fail(
        `TEAMS_APP_ID and TEAMS_APP_PASSWORD were rejected by ${login} for tenant ${teams.tenantId} (${err.status})`,
      );
    return fail(`${login}: ${errorText(err)}`);
  }
}

async function checkJira(jira: JiraConfig, timeoutMs: number): Promise<CheckResult> {
  // An OAuth app's tokens are the installed sites' (kept by the store), asked of no one here.
  if (jira.oauth)
    return ok(
      `OAuth app ${jira.oauth.clientId}: sites ${jira.oauth.allowedSites.join(',')} may install at /jira/install`,
    );
  const client = createJiraClient({
    baseUrl: jira.restUrl ?? jira.baseUrl,
    email: jira.email,
    apiToken: jira.apiToken,
    timeoutMs,
  });
  try {
    const kind = await client.deploymentType().catch(() => undefined);
    if (kind !== undefined && kind.toLowerCase() !== 'cloud')
      return fail(`${jira.baseUrl} is a Jira ${kind} site; agent-relay speaks to Jira Cloud only`);
    const me = await client.myself();
    const mismatch =
      jira.accountId !== undefined && jira.accountId !== me.accountId
        ? ` (JIRA_ACCOUNT_ID names another account: ${jira.accountId})`
        : '';
    const line = `JIRA_API_TOKEN accepted by ${jira.baseUrl}: account ${me.accountId}${mismatch}`;
    return mismatch ? fail(line) : ok(line);
  } catch (err) {
    if (err instanceof JiraApiError && (err.status === 401 || err.status === 403))
      return fail(`JIRA_EMAIL and JIRA_API_TOKEN were rejected by ${jira.baseUrl}`);
    return fail(`${jira.baseUrl}: ${errorText(err)}`);
  }
}

async function checkLinear(linear: LinearConfig): Promise<CheckResult> {
  if (linear.token === undefined)
    return ok(
      'OAuth install: each workspace installs at /linear/install (no single token to test)',
    );
  try {
    const who = await whoseToken(linear.apiUrl, linear.token);
    return ok(
      `LINEAR_ACCESS_TOKEN accepted by ${linear.apiUrl}: app user ${who.appUserId} in ` +
        `${who.urlKey ?? who.organizationId}`,
    );
  } catch (err) {
    if ((err as { code?: unknown }).code === 'forbidden')
      return fail(`LINEAR_ACCESS_TOKEN was rejected by ${linear.apiUrl}`);
    return fail(`${linear.apiUrl}: ${errorText(err)}`);
  }
}

async function checkDatabase(config: Config): Promise<CheckResult> {
  const where = describeDatabase(config.databaseUrl);
  try {
    const store = await openStore({ databaseUrl: config.databaseUrl });
    try {
      await store.ping();
    } finally {
      await store.close();
    }
    return ok(`${where}: reachable, migrations applied`);
  } catch (err) {
    return fail(`${where}: ${errorText(err)}`);
  }
}

async function checkAgentService(config: Config, timeoutMs: number): Promise<CheckResult> {
  if (config.agent.kind === 'emulator') {
    const emulator = await startEmulator({ timings: FAST_TIMINGS });
    try {
      const client = createAgentClient({ baseUrl: emulator.baseUrl, apiKey: emulator.apiKey });
      const result = await checkAgentKey(client, timeoutMs);
      return result.outcome === 'ok'
        ? ok(
            'embedded emulator starts and answers (set AGENT_API_URL + AGENT_API_KEY for the real service)',
          )
        : fail(`embedded emulator did not answer: ${JSON.stringify(result)}`);
    } finally {
      await emulator.close();
    }
  }
  const { url, apiKey } = config.agent;
  const client = createAgentClient({ baseUrl: url, apiKey, maxRetries: 0, timeoutMs });
  const result = await checkAgentKey(client, timeoutMs);
  if (result.outcome === 'ok') return ok(`${url} answered; AGENT_API_KEY accepted`);
  if (result.outcome === 'rejected')
    return fail(`${url} rejected AGENT_API_KEY (${result.status})`);
  if (result.outcome === 'refused')
    return fail(
      `${url} accepted AGENT_API_KEY but refuses work: ${result.status} ${result.serviceCode}`,
    );
  const why = networkErrorCode(result.error) ? networkReason(result.error) : result.detail;
  return fail(`${url} unreachable: ${why}; is the service running there? (AGENT_API_URL)`);
}

const SlackAuthTest = z.looseObject({
  ok: z.boolean(),
  error: z.string().optional(),
  team: z.string().optional(),
  user: z.string().optional(),
});

async function checkSlack(config: Config, timeoutMs: number): Promise<CheckResult> {
  const slack = config.slack;
  if (!slack) return skip(describeSlack(config, ''));
  const base = slack.apiUrl ?? 'https://slack.com/api/';
  if (slack.botToken === undefined)
    return ok(
      'OAuth install: each workspace installs at /slack/install (no single bot token to test). ' +
        'A Slack app distributed to other workspaces and not approved for the Slack Marketplace ' +
        'may read conversation history once a minute, 15 messages at a time: where Slack says so, ' +
        'thread context is one page of 15 (the log says when)',
    );
  try {
    const res = await fetch(new URL('auth.test', base), {
      method: 'POST',
      headers: { authorization: `Bearer ${slack.botToken}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = SlackAuthTest.parse(await res.json());
    if (!body.ok)
      return fail(`auth.test: ${body.error ?? `HTTP ${res.status}`} (check SLACK_BOT_TOKEN)`);
    const mode = slack.appToken ? 'Socket Mode' : 'HTTP mode';
    return ok(`auth.test ok: bot ${body.user ?? '?'} in team ${body.team ?? '?'} (${mode})`);
  } catch (err) {
    const hint = slack.apiUrl ? 'check SLACK_API_URL' : 'check the network or proxy';
    return fail(`Slack Web API at ${base} unreachable: ${unreachableText(err)}; ${hint}`);
  }
}

async function checkGitHub(config: Config, timeoutMs: number): Promise<CheckResult> {
  const github = config.github;
  if (!github) return skip(describeGitHub(config, ''));
  const request = { signal: AbortSignal.timeout(timeoutMs) };
  try {
    if (github.auth.kind === 'token') {
      const octokit = new Octokit({ auth: github.auth.token, baseUrl: github.apiUrl, log: quiet });
      const res = await octokit.request('GET /rate_limit', { request });
      const remaining = res.data.resources.core.remaining;
      return ok(`GITHUB_TOKEN accepted by ${github.apiUrl} (${remaining} core requests left)`);
    }
    const octokit = new Octokit({
      authStrategy: createAppAuth,
      auth: { appId: github.auth.appId, privateKey: github.auth.privateKey },
      baseUrl: github.apiUrl,
      log: quiet,
    });
    const res = await octokit.request('GET /app', { request });
    const app = res.data as { slug?: string; installations_count?: number } | null;
    return ok(
      `GitHub App ${app?.slug ?? github.auth.appId} authenticated` +
        (app?.installations_count !== undefined
          ? `, ${app.installations_count} installation(s)`
          : ''),
    );
  } catch (err) {
    const status = (err as { status?: unknown }).status;
    if (status === 401)
      return fail(
        github.auth.kind === 'token'
          ? `GITHUB_TOKEN was rejected by ${github.apiUrl} (401)`
          : `GitHub App ${github.auth.appId}: the private key was rejected by ${github.apiUrl} (401)`,
      );
    // Octokit reports a request that got no response as status 500 with no `response`.
    const answered = (err as { response?: unknown }).response !== undefined;
    if (answered && typeof status === 'number')
      return fail(`${github.apiUrl} answered HTTP ${status}`);
    return fail(
      `${github.apiUrl} unreachable: ${unreachableText(err)}; check GITHUB_API_URL or the network`,
    );
  }
}

/** The network reason when a code says one, else the error's text. */
function unreachableText(err: unknown): string {
  return networkErrorCode(err) ? networkReason(err) : errorText(err);
}

function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? `${err.message} (${code})` : err.message;
}
