/**
 * The demo's conversation: what people do in Slack and GitHub, scene by scene, each sent as
 * the platform would send it, each waiting until a person would see the answer.
 */
import type { Emulator } from '../emulator/index.js';
import { isEndedState } from '../agent/schemas.js';
import { RelayError } from '../core/relay-error.js';
import type { FakeGitHub } from '../fakes/github-rest-api.js';
import type { FakeLinear } from '../fakes/linear-graphql-api.js';
import { PEOPLE as JIRA_PEOPLE, type FakeJira } from '../fakes/jira-rest-api.js';
import { plainText, type AdfDoc } from '../jira/index.js';
import {
  GENERAL_CHANNEL,
  TEAMS_PEOPLE,
  shownText,
  type FakeTeams,
} from '../fakes/teams-connector.js';
import type { FakeMessage, FakeSlackApi } from '../fakes/slack-web-api.js';
import * as send from './platform-requests.js';
import type { DemoIssue, GitHubSender, SlackSender } from './platform-requests.js';
import type { Transcript } from './transcript.js';
import { byBot, slackButton } from './view.js';

export interface Stage {
  slack: FakeSlackApi;
  github: FakeGitHub;
  emulator: Emulator;
  slackTo: SlackSender;
  githubTo: GitHubSender;
  transcript: Transcript;
  command: string;
  botHandle: string;
  /** Bound on each wait. */
  timeoutMs: number;
  /** The fake Linear workspace, sending its webhooks to the relay. */
  linear?: FakeLinear;
  /** The fake Jira site and where its webhooks go. */
  jira?: { site: FakeJira; webhookUrl: string };
  /** The fake Bot Connector and the relay's messaging endpoint. */
  teams?: { connector: FakeTeams; messagesUrl: string };
  out?: (line: string) => void;
}

export const PEOPLE = { alice: 'UALICE', bob: 'UBOB', erin: 'UERIN' } as const;
export const CHANNELS = { eng: 'C0ENG', design: 'C0DESIGN', product: 'C0PRODUCT' } as const;
const CANCEL_ACTION_ID = 'agent_relay_cancel';

export class DemoError extends RelayError<'demo_timeout'> {
  override readonly name = 'DemoError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('demo_timeout', message, options);
  }
}

async function waitFor<T>(stage: Stage, what: string, probe: () => T | undefined): Promise<T> {
  const deadline = Date.now() + stage.timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new DemoError(`the demo waited in vain for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const botPosts = (stage: Stage, channel: string) =>
  stage.slack.messages.filter((m) => m.channel === channel && byBot(m));
const runEnded = (stage: Stage, runId: string) =>
  isEndedState(stage.emulator.runs.get(runId)?.state ?? '') || undefined;
/** The run a status message belongs to: the value of its Cancel button, or the newest run. */
const newestRun = (stage: Stage, prompt: string) =>
  stage.emulator.runs.all().find((r) => r.prompt.includes(prompt))?.run_id;

export async function slackSlashCommand(stage: Stage): Promise<FakeMessage> {
  const text = 'fix the flaky login test on Safari';
  stage.transcript.scene(
    'Slack: a slash command',
    `Alice types "${stage.command} ${text}" in #eng.`,
  );
  await send.slashCommand(stage.slackTo, {
    channel: CHANNELS.eng,
    user: PEOPLE.alice,
    userName: 'alice',
    command: stage.command,
    text,
  });
  const status = await waitFor(
    stage,
    'the status message in #eng',
    () => botPosts(stage, CHANNELS.eng)[0],
  );
  const runId = await waitFor(stage, 'the run', () => newestRun(stage, text));
  await waitFor(stage, 'the run to finish', () => runEnded(stage, runId));
  await waitFor(stage, 'the outcome reply', () =>
    stage.slack.thread(CHANNELS.eng, status.ts).find((m) => byBot(m) && m.thread_ts === status.ts),
  );
  return status;
}

export async function slackFollowUp(stage: Stage, status: FakeMessage): Promise<void> {
  const text = 'Also add a regression test for the Safari case, please.';
  stage.transcript.scene(
    'Slack: a follow-up in the thread',
    `Alice replies in the thread: "${text}"`,
  );
  const saidTs = stage.slack.seedMessage({
    channel: CHANNELS.eng,
    user: PEOPLE.alice,
    text,
    thread_ts: status.ts,
  });
  await send.slackEvent(stage.slackTo, {
    type: 'message',
    channel: CHANNELS.eng,
    channel_type: 'channel',
    user: PEOPLE.alice,
    text,
    ts: saidTs,
    thread_ts: status.ts,
  });
  const followup = await waitFor(stage, 'the follow-up to reach the service', () =>
    stage.emulator.followups.find((f) => f.message.includes('regression test')),
  );
  await waitFor(
    stage,
    'the run to finish again',
    () =>
      runEnded(stage, followup.runId) &&
      stage.emulator.history(followup.runId).filter((h) => isEndedState(h.state)).length >= 2,
  );
  // The follow-up's outcome ends with ✅ on Alice's reply (the notice that the message resumed
  // the run is a bot message too, so counting replies would stop too early).
  await waitFor(
    stage,
    'the outcome reaction on Alice’s reply',
    () =>
      stage.slack.message(CHANNELS.eng, saidTs)?.reactions.includes('white_check_mark') ||
      undefined,
  );
}

export async function slackCancel(stage: Stage): Promise<void> {
  const text = 'redesign the settings page [slow]';
  stage.transcript.scene(
    'Slack: cancel a run',
    `Bob types "${stage.command} ${text}" in #design, then clicks Cancel.`,
  );
  await send.slashCommand(stage.slackTo, {
    channel: CHANNELS.design,
    user: PEOPLE.bob,
    userName: 'bob',
    command: stage.command,
    text,
  });
  const runId = await waitFor(stage, 'the run', () =>
    newestRun(stage, 'redesign the settings page'),
  );
  await waitFor(
    stage,
    'the run to start working',
    () => stage.emulator.runs.get(runId)?.state === 'INPROGRESS' || undefined,
  );
  const { status, button } = await waitFor(stage, 'a Cancel button', () => {
    const status = botPosts(stage, CHANNELS.design)[0];
    const button = status && slackButton(status, CANCEL_ACTION_ID);
    return status && button ? { status, button } : undefined;
  });
  await send.slackButton(stage.slackTo, {
    channel: CHANNELS.design,
    user: PEOPLE.bob,
    messageTs: status.ts,
    ...button,
  });
  await waitFor(
    stage,
    'the run to be cancelled',
    () => stage.emulator.runs.get(runId)?.state === 'CANCELLED' || undefined,
  );
  await waitFor(stage, 'the cancelled outcome', () =>
    stage.slack
      .thread(CHANNELS.design, status.ts)
      .find((m) => byBot(m) && m.thread_ts === status.ts && !m.onlyFor && /cancel/i.test(m.text)),
  );
}

const ISSUE_7: DemoIssue = {
  owner: 'acme',
  repo: 'webapp',
  number: 7,
  author: 'carol',
  title: 'Login button misaligned on mobile',
  body: 'On iPhone the login button overlaps the footer.',
};
const ISSUE_12: DemoIssue = {
  owner: 'acme',
  repo: 'webapp',
  number: 12,
  author: 'dave',
  title: 'Upgrade lodash to 4.17.21',
  body: 'Dependabot flagged CVE-2021-23337.',
};

async function githubRunFinished(
  stage: Stage,
  issue: DemoIssue,
  prompt: string,
  reactedOn: { target: 'issue' | 'issue_comment'; id: number },
): Promise<void> {
  const key = `${issue.owner}/${issue.repo}#${issue.number}`;
  const runId = await waitFor(stage, `a run for ${key}`, () => newestRun(stage, prompt));
  await waitFor(stage, `the run for ${key} to finish`, () => runEnded(stage, runId));
  await waitFor(
    stage,
    `the outcome comment on ${key}`,
    () =>
      stage.github
        .commentsOn(issue.owner, issue.repo, issue.number)
        .filter((c) => c.author === stage.github.botLogin).length >= 2 || undefined,
  );
  // The outcome's reaction comes last: the scene ends with it, not the next one.
  const where = { owner: issue.owner, repo: issue.repo };
  await waitFor(
    stage,
    `the outcome reaction on ${key}`,
    () =>
      stage.github.reactionsNow(reactedOn.target, reactedOn.id, where).includes('rocket') ||
      undefined,
  );
}

export async function githubMention(stage: Stage): Promise<void> {
  const body = `@${stage.botHandle} please center the button and keep it above the footer`;
  stage.transcript.scene(
    'GitHub: a mention in an issue comment',
    `Carol comments on acme/webapp#7: "${body}"`,
  );
  const comment = stage.github.addHumanComment(ISSUE_7, 'carol', body);
  await send.githubWebhook(
    stage.githubTo,
    'issue_comment',
    send.issueComment(ISSUE_7, { id: comment.id, author: 'carol', body }),
  );
  await githubRunFinished(stage, ISSUE_7, 'center the button', {
    target: 'issue_comment',
    id: comment.id,
  });
}

export async function githubLabel(stage: Stage, label: string): Promise<void> {
  stage.transcript.scene(
    'GitHub: a label',
    `Dave adds the label "${label}" to acme/webapp#12 ("${ISSUE_12.title}").`,
  );
  await send.githubWebhook(stage.githubTo, 'issues', send.issueLabeled(ISSUE_12, label, 'dave'));
  await githubRunFinished(stage, ISSUE_12, 'lodash', { target: 'issue', id: ISSUE_12.number });
}

export async function factoryDispatch(stage: Stage): Promise<void> {
  const words = 'factory docs write the release notes for v1.2';
  stage.transcript.scene(
    'Slack: hand work to a factory',
    `Erin writes in #product: "@agent-relay ${words}"`,
  );
  const text = `<@${stage.slack.identity.user_id}> ${words}`;
  const saidTs = stage.slack.seedMessage({ channel: CHANNELS.product, user: PEOPLE.erin, text });
  await send.slackEvent(stage.slackTo, {
    type: 'app_mention',
    channel: CHANNELS.product,
    user: PEOPLE.erin,
    text,
    ts: saidTs,
  });
  const runId = await waitFor(stage, 'the factory run', () => newestRun(stage, 'release notes'));
  await waitFor(stage, 'the factory run to finish', () => runEnded(stage, runId));
  await waitFor(
    stage,
    'the outcome reply in #product',
    () =>
      stage.slack.thread(CHANNELS.product, saidTs).filter((m) => byBot(m) && !m.onlyFor).length >=
        2 || undefined,
  );
  // The outcome's reaction comes last: the scene ends with it, not the next one.
  await waitFor(
    stage,
    'the outcome reaction on Erin’s message',
    () =>
      stage.slack.message(CHANNELS.product, saidTs)?.reactions.includes('white_check_mark') ||
      undefined,
  );
}

/** Linear: an issue delegated to the agent; the session's activities as Linear shows them. */
export async function linearDelegation(stage: Stage): Promise<string[]> {
  const linear = stage.linear;
  if (!linear) return [];
  const title = 'Make the export button work offline';
  stage.transcript.scene(
    'Linear: delegate an issue',
    `Dana delegates ENG-1 ("${title}") to the agent in Linear.`,
  );
  const { session } = await linear.openSession({
    title,
    creator: { id: 'user-dana', name: 'Dana' },
  });
  await waitFor(
    stage,
    'the response in the Linear session',
    () => linear.activitiesOf(session.id).some((a) => a.content.type === 'response') || undefined,
  );
  const lines = linear.activitiesOf(session.id).map((a) => {
    const body = (a.content.body ?? '').split('\n').filter(Boolean).join(' · ');
    return `${a.content.type}${a.ephemeral ? ' (ephemeral)' : ''}: ${body}`;
  });
  const issue = linear.issues.get(session.issueId);
  const state = linear.workspaces[0]?.team.states.find((s) => s.id === issue?.stateId)?.name;
  lines.push(`issue ENG-1 is now "${state ?? '?'}"; the session links to the run's page`);
  for (const line of lines) stage.out?.(`  Linear ENG-1 │ ${line}`);
  return lines;
}

/** Jira: the `agent` label on an issue; the relay's comments as Jira shows them. */
export async function jiraLabel(stage: Stage): Promise<string[]> {
  const jira = stage.jira;
  if (!jira) return [];
  const { model, webhooks } = jira.site;
  const issue = model.addIssue('PROJ', {
    summary: 'Retry the nightly export when the bucket is busy',
    description: 'It fails about once a week with a 503 from storage.',
  });
  stage.transcript.scene('Jira: label an issue', `Alice puts the agent label on ${issue.key}.`);
  const res = await webhooks.send(
    webhooks.labelAdded(issue, JIRA_PEOPLE.alice, 'agent'),
    {},
    jira.webhookUrl,
  );
  await res.body?.cancel();
  await waitFor(stage, 'the outcome comment on the Jira issue', () =>
    model.relayComments(issue.key).length >= 2 ? true : undefined,
  );
  const lines = model.relayComments(issue.key).map((c) => {
    const words = plainText(c.body as AdfDoc)
      .split('\n')
      .filter(Boolean)
      .join(' · ');
    return `${c.edits.length > 0 ? `comment (edited ${c.edits.length}×)` : 'comment'}: ${words}`;
  });
  lines.push(`issue ${issue.key} is now "${issue.status}"`);
  for (const line of lines) stage.out?.(`  Jira ${issue.key} │ ${line}`);
  return lines;
}

/** Teams: a mention in a channel; the thread as Teams shows it (the card, then the outcome). */
export async function teamsMention(stage: Stage): Promise<string[]> {
  const teams = stage.teams;
  if (!teams) return [];
  const { connector } = teams;
  stage.transcript.scene(
    'Teams: mention the bot in a channel',
    'Alice posts "@agent-relay add a health check to the sync worker" in General.',
  );
  const mention = connector.build.channelMention(
    TEAMS_PEOPLE.alice,
    'add a health check to the sync worker',
  );
  const res = await connector.send(teams.messagesUrl, mention);
  await res.body?.cancel();
  const thread = `${GENERAL_CHANNEL};messageid=${String(mention.id)}`;
  await waitFor(stage, 'the outcome in the Teams thread', () =>
    connector.inConversation(thread).length >= 2 ? true : undefined,
  );
  const lines = connector.inConversation(thread).map((a) => {
    const card = Array.isArray(a.activity.attachments);
    const words = shownText(a).split('\n').filter(Boolean).join(' · ');
    const kind = card ? `card${a.edits.length > 0 ? ` (edited ${a.edits.length}×)` : ''}` : 'reply';
    return `${kind}: ${words}`;
  });
  for (const line of lines) stage.out?.(`  Teams General │ ${line}`);
  return lines;
}
