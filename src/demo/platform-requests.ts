/**
 * What Slack and GitHub send: real-shaped payloads, signed the way each platform signs them
 * (Slack v0 HMAC over `v0:timestamp:body`; GitHub `X-Hub-Signature-256`), posted to the
 * relay's real endpoints.
 */
import { randomUUID } from 'node:crypto';
import { signGitHub, signSlack } from '../fakes/sign-requests.js';

export interface SlackSender {
  url: string;
  signingSecret: string;
  teamId: string;
}

export async function postSlack(
  to: SlackSender,
  body: string,
  contentType: string,
): Promise<number> {
  const res = await fetch(`${to.url}/slack/events`, {
    method: 'POST',
    headers: { 'content-type': contentType, ...signSlack(body, to.signingSecret) },
    body,
  });
  await res.arrayBuffer();
  return res.status;
}

export function slashCommand(
  to: SlackSender,
  c: { channel: string; user: string; userName: string; command: string; text: string },
): Promise<number> {
  const form = new URLSearchParams({
    token: 'deprecated',
    team_id: to.teamId,
    channel_id: c.channel,
    channel_name: 'demo',
    user_id: c.user,
    user_name: c.userName,
    command: c.command,
    text: c.text,
    trigger_id: `trig.${randomUUID()}`,
    response_url: 'https://hooks.slack.test/commands/demo',
    api_app_id: 'ADEMO',
  });
  return postSlack(to, form.toString(), 'application/x-www-form-urlencoded');
}

/** An Events API `event_callback` (message or app_mention). */
export function slackEvent(to: SlackSender, event: Record<string, unknown>): Promise<number> {
  const body = JSON.stringify({
    token: 'deprecated',
    team_id: to.teamId,
    api_app_id: 'ADEMO',
    type: 'event_callback',
    event_id: `Ev${randomUUID().replace(/-/g, '').slice(0, 12).toUpperCase()}`,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [{ team_id: to.teamId, is_bot: true }],
    event: { team: to.teamId, ...event },
  });
  return postSlack(to, body, 'application/json');
}

/** A person clicks a button on a bot message. */
export function slackButton(
  to: SlackSender,
  c: {
    channel: string;
    user: string;
    messageTs: string;
    threadTs?: string;
    actionId: string;
    value: string;
  },
): Promise<number> {
  const payload = {
    type: 'block_actions',
    team: { id: to.teamId },
    user: { id: c.user, team_id: to.teamId },
    api_app_id: 'ADEMO',
    trigger_id: `trig.${randomUUID()}`,
    channel: { id: c.channel },
    container: {
      type: 'message',
      channel_id: c.channel,
      message_ts: c.messageTs,
      thread_ts: c.threadTs,
    },
    message: { ts: c.messageTs, thread_ts: c.threadTs, type: 'message' },
    actions: [
      {
        type: 'button',
        action_id: c.actionId,
        block_id: 'run',
        value: c.value,
        action_ts: `${Date.now() / 1000}`,
      },
    ],
  };
  const form = new URLSearchParams({ payload: JSON.stringify(payload) });
  return postSlack(to, form.toString(), 'application/x-www-form-urlencoded');
}

/** A person sends a form (a modal's `view_submission`): each block's one text input. */
export function slackFormSubmit(
  to: SlackSender,
  c: { user: string; callbackId: string; values: Record<string, string>; privateMetadata: string },
): Promise<number> {
  const values = Object.fromEntries(
    Object.entries(c.values).map(([block, value]) => [
      block,
      { value: { type: 'plain_text_input', value } },
    ]),
  );
  const payload = {
    type: 'view_submission',
    team: { id: to.teamId },
    user: { id: c.user, team_id: to.teamId },
    api_app_id: 'ADEMO',
    trigger_id: `trig.${randomUUID()}`,
    view: {
      id: `V${randomUUID().replace(/-/g, '').slice(0, 10).toUpperCase()}`,
      team_id: to.teamId,
      type: 'modal',
      callback_id: c.callbackId,
      private_metadata: c.privateMetadata,
      state: { values },
    },
  };
  const form = new URLSearchParams({ payload: JSON.stringify(payload) });
  return postSlack(to, form.toString(), 'application/x-www-form-urlencoded');
}

export interface GitHubSender {
  url: string;
  secret: string;
}

export async function githubWebhook(
  to: GitHubSender,
  event: string,
  payload: Record<string, unknown>,
): Promise<number> {
  const body = JSON.stringify(payload);
  const res = await fetch(`${to.url}/github/webhooks`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': event,
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': signGitHub(body, to.secret),
      'user-agent': 'GitHub-Hookshot/demo',
    },
    body,
  });
  await res.arrayBuffer();
  return res.status;
}

export interface DemoIssue {
  owner: string;
  repo: string;
  number: number;
  title: string;
  body: string;
  author: string;
}

function issuePayload(issue: DemoIssue, labels: string[]) {
  return {
    number: issue.number,
    title: issue.title,
    body: issue.body,
    html_url: `https://github.test/${issue.owner}/${issue.repo}/issues/${issue.number}`,
    user: { login: issue.author, type: 'User' },
    author_association: 'MEMBER',
    labels: labels.map((name) => ({ name })),
    state: 'open',
  };
}

const repository = (issue: DemoIssue) => ({
  name: issue.repo,
  full_name: `${issue.owner}/${issue.repo}`,
  owner: { login: issue.owner, type: 'Organization' },
});

export function issueComment(
  issue: DemoIssue,
  comment: { id: number; author: string; body: string },
): Record<string, unknown> {
  return {
    action: 'created',
    issue: issuePayload(issue, []),
    comment: {
      id: comment.id,
      body: comment.body,
      html_url: `https://github.test/${issue.owner}/${issue.repo}/issues/${issue.number}#issuecomment-${comment.id}`,
      user: { login: comment.author, type: 'User' },
      author_association: 'MEMBER',
    },
    repository: repository(issue),
    sender: { login: comment.author, type: 'User' },
  };
}

export function issueLabeled(issue: DemoIssue, label: string, by: string): Record<string, unknown> {
  return {
    action: 'labeled',
    issue: issuePayload(issue, [label]),
    label: { name: label },
    repository: repository(issue),
    sender: { login: by, type: 'User' },
  };
}
