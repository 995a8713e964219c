/**
 * The crash test's workload: 100 triggers across 50 threads (40 Slack threads, 10 GitHub
 * issues), two per thread: a prompt, then `new <prompt>` (a fresh run in the same thread), so
 * every trigger must lead to exactly one run. Each prompt carries a unique token (`S7a`,
 * `G3b`) that the run's title, status message and outcome repeat.
 */
import { fixtureText } from '../github/fixtures.js';
import { signGitHub, signSlack } from '../../src/fakes/sign-requests.js';
import { appMentionEvent, eventCallback } from '../helpers/slack.js';
import { SECRETS } from '../helpers/secrets.js';

export interface CrashTrigger {
  token: string;
  platform: 'slack' | 'github';
  /** The delivery id the relay stamps into metadata.relay_request. */
  deliveryId: string;
  /** Index of the thread (0..49). */
  thread: number;
  /** Send it (signed) to the service at `url`; resolves with the HTTP status. */
  send(url: string): Promise<number>;
}

/** The token in a run's title, status message and outcome. */
export const TOKEN = /task ([SG]\d+[ab])\b/;

export const SLACK_THREADS = 40;
export const GITHUB_ISSUES = 10;

/** `marker` (e.g. `[fail]`, `[block]`) scripts the run's outcome in the emulator. */
export function slackTrigger(i: number, second: boolean, marker = ''): CrashTrigger {
  const token = `S${i}${second ? 'b' : 'a'}`;
  const threadTs = `1700100${String(i).padStart(3, '0')}.000100`;
  const ts = second ? `1700100${String(i).padStart(3, '0')}.000200` : threadTs;
  const eventId = `EvCRASH${token}`;
  const text = `<@UBOT0001> ${second ? 'new ' : ''}task ${token} please${marker ? ` ${marker}` : ''}`;
  const body = eventCallback(
    appMentionEvent({ ts, text, ...(second ? { thread_ts: threadTs } : {}) }),
    { eventId },
  );
  return {
    token,
    platform: 'slack',
    deliveryId: eventId,
    thread: i,
    async send(url) {
      const headers = signSlack(body, SECRETS.slackSigningSecret);
      const res = await fetch(`${url}/slack/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
        signal: AbortSignal.timeout(5_000),
      });
      await res.arrayBuffer();
      return res.status;
    },
  };
}

export function githubTrigger(j: number, second: boolean, marker = ''): CrashTrigger {
  const token = `G${j}${second ? 'b' : 'a'}`;
  const number = 100 + j;
  const payload = JSON.parse(fixtureText('issue-comment-created')) as Record<
    string,
    Record<string, unknown>
  >;
  if (payload.issue) {
    payload.issue.number = number;
    payload.issue.html_url = `https://github.com/octo-org/widgets/issues/${number}`;
  }
  if (payload.comment) {
    payload.comment.id = 800_000 + j * 2 + (second ? 1 : 0);
    payload.comment.body = `@agent-relay ${second ? 'new ' : ''}task ${token} please${marker ? ` ${marker}` : ''}`;
  }
  const body = JSON.stringify(payload);
  const deliveryId = `crash-${token}`;
  return {
    token,
    platform: 'github',
    deliveryId,
    thread: SLACK_THREADS + j,
    async send(url) {
      const res = await fetch(`${url}/github/webhooks`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-github-event': 'issue_comment',
          'x-github-delivery': deliveryId,
          'x-hub-signature-256': signGitHub(body, SECRETS.githubWebhookSecret),
        },
        body,
        signal: AbortSignal.timeout(5_000),
      });
      await res.arrayBuffer();
      return res.status;
    },
  };
}

/** All 100 triggers; `threads` picks which threads (both triggers of each, in order). */
export function crashTriggers(): CrashTrigger[] {
  const all: CrashTrigger[] = [];
  for (let i = 0; i < SLACK_THREADS; i++) all.push(slackTrigger(i, false), slackTrigger(i, true));
  for (let j = 0; j < GITHUB_ISSUES; j++) all.push(githubTrigger(j, false), githubTrigger(j, true));
  return all;
}

/**
 * Deliver triggers as the platforms do: at least once. Threads go in parallel, the two
 * triggers of a thread in order; a delivery that fails (the service is down or was killed
 * mid-request) is repeated, with the same delivery id, until it is acknowledged.
 */
export async function deliverAll(triggers: CrashTrigger[], url: () => string): Promise<void> {
  const byThread = new Map<number, CrashTrigger[]>();
  for (const t of triggers) byThread.set(t.thread, [...(byThread.get(t.thread) ?? []), t]);
  await Promise.all(
    [...byThread.values()].map(async (list) => {
      for (const t of list) await deliverOne(t, url);
    }),
  );
}

async function deliverOne(t: CrashTrigger, url: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const status = await t.send(url()).catch(() => 0);
    if (status >= 200 && status < 300) return;
    if (Date.now() > deadline)
      throw new Error(`${t.token} was never acknowledged (last ${status})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
