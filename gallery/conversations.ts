/**
 * Whole conversations, recorded from the real relay: the service with its embedded emulator,
 * the fake Slack Web API and the fake GitHub REST API in one process (as `npm run demo`), and
 * people's requests sent through the real endpoints, signed as each platform signs them. Each
 * conversation is a Slack thread or a GitHub issue from the first message to the last, as it
 * reads when everything has been delivered: success, failure, cancel, BLOCKED, a follow-up
 * that answers a BLOCKED run, and a plan reviewed (changes asked for, the revision approved). Nothing here is written by hand but the people's words.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isEndedState } from '../src/agent/schemas.js';
import { loadConfig } from '../src/config/load.js';
import { startEmulator, type Emulator } from '../src/emulator/index.js';
import { silentLogger } from '../src/service/logger.js';
import { startService, type RunningService } from '../src/main.js';
import { startFakeGitHub, type FakeGitHub } from '../src/fakes/github-rest-api.js';
import { startFakeSlackApi, type FakeSlackApi } from '../src/fakes/slack-web-api.js';
import * as send from '../src/demo/platform-requests.js';
import type { DemoIssue } from '../src/demo/platform-requests.js';
import { byBot, slackButton } from '../src/demo/view.js';
import { CHANGES_CALLBACK_ID, REVIEW_ACTION_IDS } from '../src/slack/api/action-ids.js';

export type Outcome = 'success' | 'failure' | 'cancel' | 'blocked' | 'followup' | 'plan';
export const OUTCOMES: readonly Outcome[] = [
  'success',
  'failure',
  'cancel',
  'blocked',
  'followup',
  'plan',
];

export interface ConversationMessage {
  /** `agent-relay`, or the person's name. */
  who: string;
  bot: boolean;
  /** Only the asker sees it (a Slack ephemeral message). */
  private: boolean;
  /** Slack: the message's text and blocks as last edited. */
  slack?: { text: string; blocks: unknown[] };
  /** GitHub: the comment body as last edited (or the issue's body). */
  github?: { body: string };
  /** Reactions on it now. */
  reactions: string[];
  /** How many times it was edited. */
  edits: number;
}

export interface Conversation {
  name: string;
  platform: 'slack' | 'github';
  outcome: Outcome;
  caption: string;
  messages: ConversationMessage[];
  /** The titles and ids of the runs it is about (for the repetition check). */
  titles: string[];
  runIds: string[];
}

const SLACK_SECRET = 'gallery-signing-secret';
const SLACK_TOKEN = 'xoxb-gallery-token';
const GITHUB_SECRET = 'gallery-webhook-secret';
const GITHUB_TOKEN = 'ghp_gallery_token';
const ALICE = 'U0ALICE01';
const CHANNEL = 'C0WEB01';
const CANCEL_ACTION_ID = 'agent_relay_cancel';

/** What each conversation asks, and what happens after. */
const ASKS: Record<Outcome, { prompt: string; caption: string }> = {
  success: {
    prompt: 'tidy the CI config: one shared setup step for lint, test and build',
    caption: 'A request that succeeds',
  },
  failure: { prompt: 'migrate the billing tables to v2', caption: 'A request that fails' },
  cancel: {
    prompt: 'redesign the settings page as three sections',
    caption: 'A request cancelled while it runs',
  },
  blocked: {
    prompt: 'rename the payments module to something that says what it holds',
    caption: 'A request that waits for an answer (BLOCKED)',
  },
  followup: {
    prompt: 'rename the invoices module, keeping the imports working',
    caption: 'A BLOCKED request, answered with a follow-up',
  },
  plan: {
    prompt: 'mode=plan move the session store from Redis to Postgres',
    caption: 'Plan first: the plan, a change asked for, the revised plan, approval, the outcome',
  },
};

/**
 * How the service is scripted to answer each request: words that stand for the emulator's
 * markers (its `phrases`), so no marker is ever part of what people wrote.
 */
const SCRIPT: Readonly<Record<string, string>> = {
  'migrate the billing tables': '[fail]',
  'redesign the settings page': '[slow]',
  'rename the payments module': '[block]',
  'rename the invoices module': '[block]',
};

/**
 * The service's clock runs this many times faster than real time, so runs take minutes as
 * real ones do (the pictures say "after 2m 55s", not "after 0s") while the recording takes
 * seconds.
 */
const SERVICE_SPEED = 300;
/** A run's phases in the service's time: minutes, as a real agent takes. */
const SERVICE_TIMINGS = {
  queuedMs: 4_000,
  pendingMs: 6_000,
  claimedMs: 25_000,
  runMs: 140_000,
  // A slow run lasts long enough for its cancel to land first, however busy the machine.
  slowRunMs: 15_000 * SERVICE_SPEED,
};
const ANSWER = 'Call it billing-core, and keep the old name as an alias.';
/** What the reviewer asks to change in the first plan. */
const CHANGES = 'Keep reading from Redis for a week after the switch, so we can roll back.';

/** The GitHub issue each conversation happens on, as a team would have written it. */
const ISSUES: Record<Outcome, { title: string; body: string }> = {
  success: {
    title: 'CI config repeats the same setup in every job',
    body: 'Lint, test and build each install Node and restore the cache by hand. One reusable setup step would do.',
  },
  failure: {
    title: 'Billing still reads the old invoice tables',
    body: 'Move invoices and payments to the v2 tables; reads must keep working during the switch.',
  },
  cancel: {
    title: 'Settings page is one long form',
    body: 'Split it into Profile, Notifications and Billing sections, as in the design review.',
  },
  blocked: {
    title: 'payments module now covers refunds and invoices too',
    body: 'The name no longer says what it holds. Pick a better one and rename it everywhere.',
  },
  followup: {
    title: 'invoices module is really billing',
    body: 'Rename it without breaking the imports of the other services.',
  },
  plan: {
    title: 'Sessions should live in Postgres, not Redis',
    body: 'Redis is the last thing we run only for sessions. Move them to Postgres; nobody may be signed out by the move.',
  },
};

interface Rig {
  service: RunningService;
  emulator: Emulator;
  slack: FakeSlackApi;
  github: FakeGitHub;
  slackTo: send.SlackSender;
  githubTo: send.GitHubSender;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`gallery: waited in vain for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The run a request started: the newest with its prompt (each platform asks the same). */
const runOf = (rig: Rig, prompt: string, before: ReadonlySet<string>) => {
  // The options before a prompt (`mode=plan …`) are the relay's, not the agent's.
  const words = prompt.replace(/^(?:\S+=\S+\s+)+/, '');
  return rig.emulator.runs.all().find((r) => r.prompt.includes(words) && !before.has(r.run_id));
};
const knownRuns = (rig: Rig) => new Set(rig.emulator.runs.all().map((r) => r.run_id));

/** Until the run is in `state` (or ended), its news recorded, and nothing left to deliver. */
async function settled(rig: Rig, runId: string, done: (state: string) => boolean): Promise<void> {
  await waitFor(`run ${runId} to settle`, async () => {
    const record = await rig.service.store.runs.get(runId);
    if (!record || !done(record.state) || record.notifiedState !== record.state) return undefined;
    return (await rig.service.store.outboxQueue.depth()) === 0 || undefined;
  });
  // A notification queued just now is claimed within a poll: look again after one.
  await new Promise((resolve) => setTimeout(resolve, 200));
  await waitFor('the outbox to empty', async () =>
    (await rig.service.store.outboxQueue.depth()) === 0 ? true : undefined,
  );
}

/** How long a run works before it is cancelled, in the service's time. */
const CANCELLED_AFTER_MS = 95_000;

/** Until the run has worked `ms` of the service's time. */
async function workFor(rig: Rig, runId: string, ms: number): Promise<void> {
  await waitFor('the run to work', () =>
    rig.emulator.runs.get(runId)?.state === 'INPROGRESS' ? true : undefined,
  );
  await new Promise((resolve) => setTimeout(resolve, ms / SERVICE_SPEED));
}

const ended = (state: string) => isEndedState(state);
const blockedOrEnded = (state: string) => state === 'BLOCKED' || isEndedState(state);

async function slackConversation(rig: Rig, outcome: Outcome, n: number): Promise<Conversation> {
  const { prompt, caption } = ASKS[outcome];
  const text = `<@${rig.slack.identity.user_id}> ${prompt}`;
  const before = knownRuns(rig);
  const rootTs = rig.slack.seedMessage({ channel: CHANNEL, user: ALICE, text });
  await send.slackEvent(rig.slackTo, {
    type: 'app_mention',
    channel: CHANNEL,
    user: ALICE,
    text,
    ts: rootTs,
  });
  const run = await waitFor(`the Slack run ${n}`, () => runOf(rig, prompt, before));
  if (outcome === 'cancel') {
    await workFor(rig, run.run_id, CANCELLED_AFTER_MS);
    const { status, button } = await waitFor('a Cancel button', () => {
      for (const m of rig.slack.thread(CHANNEL, rootTs)) {
        const button = byBot(m) ? slackButton(m, CANCEL_ACTION_ID) : undefined;
        if (button) return { status: m, button };
      }
      return undefined;
    });
    await send.slackButton(rig.slackTo, {
      channel: CHANNEL,
      user: ALICE,
      messageTs: status.ts,
      threadTs: rootTs,
      ...button,
    });
  }
  await settled(
    rig,
    run.run_id,
    outcome === 'blocked' || outcome === 'followup' || outcome === 'plan' ? blockedOrEnded : ended,
  );
  if (outcome === 'plan') await reviewOnSlack(rig, run.run_id, rootTs);
  if (outcome === 'followup') {
    const saidTs = rig.slack.seedMessage({
      channel: CHANNEL,
      user: ALICE,
      text: ANSWER,
      thread_ts: rootTs,
    });
    await send.slackEvent(rig.slackTo, {
      type: 'message',
      channel: CHANNEL,
      channel_type: 'channel',
      user: ALICE,
      text: ANSWER,
      ts: saidTs,
      thread_ts: rootTs,
    });
    await waitFor('the follow-up to reach the service', () =>
      rig.emulator.followups.find((f) => f.runId === run.run_id),
    );
    await settled(rig, run.run_id, ended);
  }
  const messages = rig.slack.thread(CHANNEL, rootTs).map((m) => ({
    who: byBot(m) ? 'agent-relay' : 'alice',
    bot: byBot(m),
    private: m.onlyFor !== undefined,
    slack: { text: m.text, blocks: m.blocks ?? [] },
    reactions: [...m.reactions],
    edits: Math.max(0, m.history.length - 1),
  }));
  const record = await rig.service.store.runs.get(run.run_id);
  return {
    name: `slack-${outcome}`,
    platform: 'slack',
    outcome,
    caption,
    messages,
    titles: [run.title, record?.title ?? ''].filter((t) => t !== ''),
    runIds: [run.run_id],
  };
}

async function githubConversation(rig: Rig, outcome: Outcome, n: number): Promise<Conversation> {
  const { prompt, caption } = ASKS[outcome];
  const issue: DemoIssue = {
    owner: 'acme',
    repo: 'webapp',
    number: 100 + n,
    author: 'alice',
    ...ISSUES[outcome],
  };
  const comment = async (body: string) => {
    const made = rig.github.addHumanComment(issue, 'alice', body);
    await send.githubWebhook(
      rig.githubTo,
      'issue_comment',
      send.issueComment(issue, { id: made.id, author: 'alice', body }),
    );
  };
  const before = knownRuns(rig);
  await comment(`@agent-relay ${prompt}`);
  const run = await waitFor(`the GitHub run ${n}`, () => runOf(rig, prompt, before));
  if (outcome === 'cancel') {
    await workFor(rig, run.run_id, CANCELLED_AFTER_MS);
    await comment('@agent-relay cancel');
  }
  await settled(
    rig,
    run.run_id,
    outcome === 'blocked' || outcome === 'followup' || outcome === 'plan' ? blockedOrEnded : ended,
  );
  if (outcome === 'plan') {
    // A reply while the plan waits asks for changes; `approve` carries the revised plan out.
    await comment(`@agent-relay ${CHANGES}`);
    await waitFor('the changes to reach the service', () =>
      rig.emulator.followups.find((f) => f.runId === run.run_id),
    );
    await waitFor('the revised plan', () =>
      rig.github
        .commentsOn(issue.owner, issue.repo, issue.number)
        .some((c) => c.body.includes('revised plan is ready'))
        ? true
        : undefined,
    );
    await settled(rig, run.run_id, blockedOrEnded);
    await comment('@agent-relay approve');
    await settled(rig, run.run_id, ended);
  }
  if (outcome === 'followup') {
    await comment(`@agent-relay ${ANSWER}`);
    await waitFor('the follow-up to reach the service', () =>
      rig.emulator.followups.find((f) => f.runId === run.run_id),
    );
    await settled(rig, run.run_id, ended);
  }
  const messages: ConversationMessage[] = [
    {
      who: 'alice',
      bot: false,
      private: false,
      github: { body: issue.body },
      reactions: [],
      edits: 0,
    },
    ...rig.github.commentsOn(issue.owner, issue.repo, issue.number).map((c) => ({
      who: c.author.endsWith('[bot]') ? 'agent-relay' : c.author,
      bot: c.author.endsWith('[bot]'),
      private: false,
      github: { body: c.body },
      reactions: [...c.reactions],
      edits: c.edits.length,
    })),
  ];
  const record = await rig.service.store.runs.get(run.run_id);
  return {
    name: `github-${outcome}`,
    platform: 'github',
    outcome,
    caption,
    messages,
    titles: [run.title, record?.title ?? ''].filter((t) => t !== ''),
    runIds: [run.run_id],
  };
}

/** The newest plan message of the thread with its Approve button (version `version`). */
function planMessage(rig: Rig, rootTs: string, version: number) {
  for (const m of rig.slack.thread(CHANNEL, rootTs)) {
    if (!byBot(m)) continue;
    const approve = slackButton(m, REVIEW_ACTION_IDS.approve);
    if (approve?.value.endsWith(`:${version}`)) return { message: m, approve };
  }
  return undefined;
}

/** Slack's review: Request changes (the form), then Approve and implement on the revision. */
async function reviewOnSlack(rig: Rig, runId: string, rootTs: string): Promise<void> {
  const first = await waitFor('the plan', () => planMessage(rig, rootTs, 1));
  const opened = rig.slack.okCallsTo('views.open').length;
  await send.slackButton(rig.slackTo, {
    channel: CHANNEL,
    user: ALICE,
    messageTs: first.message.ts,
    threadTs: rootTs,
    actionId: REVIEW_ACTION_IDS.changes,
    value: first.approve.value,
  });
  const form = await waitFor('the changes form', () => rig.slack.okCallsTo('views.open')[opened]);
  const view = form.params.view as { private_metadata: string };
  await send.slackFormSubmit(rig.slackTo, {
    user: ALICE,
    callbackId: CHANGES_CALLBACK_ID,
    values: { changes: CHANGES },
    privateMetadata: view.private_metadata,
  });
  const revised = await waitFor('the revised plan', () => planMessage(rig, rootTs, 2));
  await settled(rig, runId, blockedOrEnded);
  await send.slackButton(rig.slackTo, {
    channel: CHANNEL,
    user: ALICE,
    messageTs: revised.message.ts,
    threadTs: rootTs,
    actionId: REVIEW_ACTION_IDS.approve,
    value: revised.approve.value,
  });
  await waitFor('the approval to reach the service', () =>
    rig.emulator.followups.filter((f) => f.runId === runId).length >= 2 ? true : undefined,
  );
  await settled(rig, runId, ended);
}

/** Record every conversation (about ten seconds): Slack's, then GitHub's. */
export async function recordConversations(): Promise<Conversation[]> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-relay-gallery-'));
  const slack = await startFakeSlackApi({
    token: SLACK_TOKEN,
    identity: {
      user_id: 'U0RELAY01',
      bot_id: 'B0RELAY01',
      team_id: 'T0GALLERY',
      team: 'Gallery',
      url: 'https://gallery.slack.test/',
    },
  });
  const github = await startFakeGitHub({ token: GITHUB_TOKEN });
  const startedAt = Date.now();
  const emulator = await startEmulator({
    timings: SERVICE_TIMINGS,
    clock: { now: () => startedAt + (Date.now() - startedAt) * SERVICE_SPEED },
    phrases: SCRIPT,
  });
  const config = loadConfig({
    AGENT_API_URL: emulator.baseUrl,
    AGENT_API_KEY: emulator.apiKey,
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: join(dir, 'gallery.db'),
    POLL_INTERVAL_MS: '50',
    SLACK_SIGNING_SECRET: SLACK_SECRET,
    SLACK_BOT_TOKEN: SLACK_TOKEN,
    SLACK_API_URL: slack.url,
    GITHUB_WEBHOOK_SECRET: GITHUB_SECRET,
    GITHUB_TOKEN,
    GITHUB_API_URL: github.url,
  });
  const service = await startService(config, {
    logger: silentLogger(),
    engineOptions: { workerPollMs: 20, cancelRetryDelaysMs: [200, 400, 800] },
    platforms: { githubMinWriteIntervalMs: 0 },
    announce: false,
  });
  const rig: Rig = {
    service,
    emulator,
    slack,
    github,
    slackTo: { url: service.url, signingSecret: SLACK_SECRET, teamId: slack.identity.team_id },
    githubTo: { url: service.url, secret: GITHUB_SECRET },
  };
  try {
    const out: Conversation[] = [];
    for (const [i, outcome] of OUTCOMES.entries()) {
      out.push(await slackConversation(rig, outcome, i + 1));
    }
    for (const [i, outcome] of OUTCOMES.entries()) {
      out.push(await githubConversation(rig, outcome, i + 1));
    }
    return out;
  } finally {
    await service.stop();
    await Promise.all([slack.close(), github.close(), emulator.close()]);
    rmSync(dir, { recursive: true, force: true });
  }
}
