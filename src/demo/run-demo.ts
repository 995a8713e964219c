/**
 * `npm run demo`: in one process, the service with the embedded emulator, a fake Slack Web
 * API, a fake GitHub API, a fake Linear API, a fake Jira site and a fake Teams Bot Connector; then a scripted conversation through the real
 * HTTP endpoints, with what a person would see in each thread printed as the runs progress.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunItem } from '../agent/schemas.js';
import { loadConfig } from '../config/load.js';
import { DEFAULT_BOT_HANDLE } from '../core/command/parse-command.js';
import type { Logger } from '../core/ports/index.js';
import { FAST_TIMINGS } from '../emulator/index.js';
import type { EmulatorTimings } from '../emulator/index.js';
import { silentLogger } from '../service/logger.js';
import { startService } from '../main.js';
import { startFakeGitHub } from '../fakes/github-rest-api.js';
import { startFakeLinear } from '../fakes/linear-graphql-api.js';
import {
  FAKE_JIRA_EMAIL,
  FAKE_JIRA_TOKEN,
  FAKE_JIRA_WEBHOOK_SECRET,
  startFakeJira,
} from '../fakes/jira-rest-api.js';
import { startFakeSlackApi } from '../fakes/slack-web-api.js';
import {
  FAKE_TEAMS_APP_ID,
  FAKE_TEAMS_APP_PASSWORD,
  FAKE_TEAMS_TENANT,
  startFakeTeams,
} from '../fakes/teams-connector.js';
import * as scenes from './script.js';
import type { Stage } from './script.js';
import { createTranscript } from './transcript.js';
import type { ThreadView } from './transcript.js';

/** Slow enough to watch a status message move, fast enough for a one-minute demo. */
export const DEMO_TIMINGS: EmulatorTimings = {
  queuedMs: 400,
  pendingMs: 300,
  claimedMs: 300,
  runMs: 1500,
  slowRunMs: 8000,
};

export interface DemoOptions {
  out?: (line: string) => void;
  /** Test timings: the whole demo in a few seconds. */
  fast?: boolean;
  logger?: Logger;
}

export interface DemoResult {
  slackThreads: ThreadView[];
  githubThreads: ThreadView[];
  runs: RunItem[];
  followups: { runId: string; message: string }[];
  /** The Linear session's activities, oldest first. */
  linearActivities: string[];
  /** The Jira issue's comments from the relay, oldest first. */
  jiraComments: string[];
  /** The Teams thread's activities from the relay, oldest first. */
  teamsActivities: string[];
}

const SLACK_SECRET = 'demo-signing-secret';
const SLACK_TOKEN = 'xoxb-demo-token';
/** The demo workspace: agent-relay's bot user in team Demo. */
const SLACK_IDENTITY = {
  user_id: 'URELAYBOT',
  bot_id: 'BRELAY',
  team_id: 'TDEMO',
  team: 'Demo',
  url: 'https://demo.slack.test/',
};
const GITHUB_SECRET = 'demo-webhook-secret';
const GITHUB_TOKEN = 'ghp_demo_token';
const LINEAR_SECRET = 'demo-linear-webhook-secret';

export async function runDemo(options: DemoOptions = {}): Promise<DemoResult> {
  const out = options.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const dir = mkdtempSync(join(tmpdir(), 'agent-relay-demo-'));
  const slack = await startFakeSlackApi({ token: SLACK_TOKEN, identity: SLACK_IDENTITY });
  const github = await startFakeGitHub({ token: GITHUB_TOKEN });
  const linear = await startFakeLinear();
  const jira = await startFakeJira();
  const teams = await startFakeTeams();
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: join(dir, 'demo.db'),
    POLL_INTERVAL_MS: options.fast ? '50' : '250',
    SLACK_SIGNING_SECRET: SLACK_SECRET,
    SLACK_BOT_TOKEN: SLACK_TOKEN,
    SLACK_API_URL: slack.url,
    GITHUB_WEBHOOK_SECRET: GITHUB_SECRET,
    GITHUB_TOKEN,
    GITHUB_API_URL: github.url,
    LINEAR_WEBHOOK_SECRET: LINEAR_SECRET,
    LINEAR_ACCESS_TOKEN: linear.workspaces[0]!.token,
    LINEAR_API_URL: linear.url,
    JIRA_BASE_URL: jira.url,
    JIRA_EMAIL: FAKE_JIRA_EMAIL,
    JIRA_API_TOKEN: FAKE_JIRA_TOKEN,
    JIRA_WEBHOOK_SECRET: FAKE_JIRA_WEBHOOK_SECRET,
    JIRA_ALLOWED_PROJECTS: 'PROJ',
    JIRA_START_TRANSITION: 'In Progress',
    TEAMS_APP_ID: FAKE_TEAMS_APP_ID,
    TEAMS_APP_PASSWORD: FAKE_TEAMS_APP_PASSWORD,
    TEAMS_TENANT_ID: FAKE_TEAMS_TENANT,
    TEAMS_ALLOWED_TENANTS: FAKE_TEAMS_TENANT,
  });
  const service = await startService(config, {
    logger: options.logger ?? silentLogger(),
    emulatorTimings: options.fast ? FAST_TIMINGS : DEMO_TIMINGS,
    engineOptions: { workerPollMs: options.fast ? 20 : 100, cancelRetryDelaysMs: [200, 400, 800] },
    platforms: {
      githubMinWriteIntervalMs: 0,
      teamsOpenIdMetadataUrl: teams.openIdMetadataUrl,
      teamsLoginEndpoint: teams.url,
    },
    announce: false,
  });
  linear.setWebhook(`${service.url}/linear/webhooks`, LINEAR_SECRET);
  const transcript = createTranscript(slack, github, out);
  const names: [string, string][] = [
    [scenes.PEOPLE.alice, 'Alice'],
    [scenes.PEOPLE.bob, 'Bob'],
    [scenes.PEOPLE.erin, 'Erin'],
    [scenes.CHANNELS.eng, '#eng'],
    [scenes.CHANNELS.design, '#design'],
    [scenes.CHANNELS.product, '#product'],
    [slack.identity.user_id, 'agent-relay'],
  ];
  for (const [id, name] of names) transcript.names.set(id, name);

  try {
    out('agent-relay demo: the service, the Agent Run Service emulator, a fake Slack, a fake');
    out(`GitHub, a fake Linear, a fake Jira and a fake Teams, all in this process. The relay`);
    out('listens on');
    out(`${service.url};`);
    out('every request below is signed and sent to its real endpoints, as each would send it.');
    const stage: Stage = {
      slack,
      github,
      emulator: service.emulator!,
      slackTo: { url: service.url, signingSecret: SLACK_SECRET, teamId: slack.identity.team_id },
      githubTo: { url: service.url, secret: GITHUB_SECRET },
      transcript,
      command: config.slack?.command ?? '/agent',
      botHandle: config.github?.botHandle ?? DEFAULT_BOT_HANDLE,
      timeoutMs: options.fast ? 10_000 : 30_000,
      linear,
      jira: { site: jira, webhookUrl: `${service.url}/jira/webhooks` },
      teams: { connector: teams, messagesUrl: `${service.url}/teams/messages` },
      out,
    };
    const status = await scenes.slackSlashCommand(stage);
    await scenes.slackFollowUp(stage, status);
    await scenes.slackCancel(stage);
    await scenes.githubMention(stage);
    await scenes.githubLabel(stage, config.github?.triggerLabel ?? 'agent');
    await scenes.factoryDispatch(stage);
    const linearActivities = await scenes.linearDelegation(stage);
    const jiraComments = await scenes.jiraLabel(stage);
    const teamsActivities = await scenes.teamsMention(stage);
    transcript.printFinal();
    out('');
    out('That is agent-relay: start, steer, cancel and follow runs without leaving the thread.');
    return {
      slackThreads: transcript.slackThreads(),
      githubThreads: transcript.githubThreads(),
      runs: service.emulator!.runs.all(),
      followups: service.emulator!.followups.map((f) => ({ runId: f.runId, message: f.message })),
      linearActivities,
      jiraComments,
      teamsActivities,
    };
  } finally {
    await service.stop();
    await Promise.all([slack.close(), github.close(), linear.close(), jira.close(), teams.close()]);
    rmSync(dir, { recursive: true, force: true });
  }
}
