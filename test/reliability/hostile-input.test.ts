/**
 * Hostile and broken input: every request of the corpus,
 * to both endpoints of the running service, gets its status code and leaves nothing behind:
 * no inbox row, no outbox row, no run, no thread, no request to the Agent Run Service, no
 * message on Slack or GitHub. A well-formed request afterwards does get through (the corpus
 * is not passing because nothing works).
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/wait-until.js';
import { GITHUB_CASES, validGitHubBody } from './hostile-github.js';
import { SLACK_CASES, validSlackBody } from './hostile-requests.js';
import { startRelay } from '../helpers/relay.js';
import type { Relay } from '../helpers/relay.js';
import { leakedSecrets } from '../helpers/secrets.js';

// A fresh service per case: a request that wrongly gets through cannot blur the next case.
let relay: Relay;
const logTexts: string[] = [];
beforeEach(async () => {
  relay = await startRelay();
});
afterEach(async () => {
  await relay.close();
  logTexts.push(relay.logs.text());
});

/** Requests that change something at the service (a create, a follow-up, a cancel). */
function serviceWrites(): number {
  const counts = relay.emulator.requests.snapshot();
  return Object.entries(counts)
    .filter(([route]) => route.startsWith('POST '))
    .reduce((sum, [, n]) => sum + n, 0);
}

interface Footprint {
  rows: ReturnType<Relay['rows']>;
  runs: number;
  writes: number;
  slackCalls: string[];
  comments: number;
  reactions: number;
}

function footprint(): Footprint {
  return {
    rows: relay.rows(),
    runs: relay.emulator.runs.count(),
    writes: serviceWrites(),
    slackCalls: relay.slack.calls.map((c) => c.method).filter((m) => m !== 'auth.test'),
    comments: relay.github.comments.size,
    reactions: relay.github.reactions.length,
  };
}

async function expectUntouched(before: Footprint): Promise<void> {
  // Give a wrongly accepted trigger time to reach the workers (they poll every 20 ms).
  await new Promise((resolve) => setTimeout(resolve, 80));
  expect(footprint()).toEqual(before);
}

describe.each([
  { route: 'POST /slack/events', cases: SLACK_CASES, url: () => relay.slackEvents },
  { route: 'POST /github/webhooks', cases: GITHUB_CASES, url: () => relay.githubWebhooks },
])('hostile input to $route', ({ cases, url }) => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const before = footprint();
    const res = await c.send(url());
    await res.arrayBuffer();
    expect(c.status, `answered ${res.status}`).toContain(res.status);
    await expectUntouched(before);
  });
});

describe('a prompt far over the limit', () => {
  it('Slack: a 400 KiB prompt gets a clear "too long" reply in the thread, to its author only, not a run', async () => {
    const r = relay;
    const res = await r.postSlack(validSlackBody(`<@UBOT0001> ${'y'.repeat(400 * 1024)}`));
    expect(res.status).toBe(200);
    const reply = await waitUntil(
      () =>
        r.slack
          .okCallsTo('chat.postEphemeral')
          .find((c) => /too long/i.test(String(c.params.text))),
      { timeoutMs: 8_000 },
    );
    expect(
      r.slack.okCallsTo('chat.postMessage').some((c) => /too long/i.test(String(c.params.text))),
    ).toBe(false);
    expect(String(reply.params.text)).toMatch(/limit is 20000/);
    expect(String(reply.params.thread_ts)).toMatch(/^\d+\.\d+$/);
    expect(r.emulator.runs.count()).toBe(0);
    expect(serviceWrites()).toBe(0);
  });

  it('GitHub: a 60,000-character comment gets a clear "too long" reply, not a run', async () => {
    const r = relay;
    const body = validGitHubBody(`@agent-relay ${'y'.repeat(60_000)}`);
    const res = await r.postGitHub(body, { event: 'issue_comment', deliveryId: 'too-long-1' });
    expect(res.status).toBe(202);
    const reply = await waitUntil(
      () => [...r.github.comments.values()].find((c) => /too long/i.test(c.body)),
      { timeoutMs: 8_000 },
    );
    expect(reply.body).toMatch(/limit is 20000/);
    expect(r.emulator.runs.count()).toBe(0);
    expect(serviceWrites()).toBe(0);
  });
});

describe('a prompt of 1 MiB (far over the prompt limit)', () => {
  it('Slack: a 1 MiB event (no real Slack event is that large) gets 413 and leaves nothing', async () => {
    const before = footprint();
    const res = await relay.postSlack(validSlackBody(`<@UBOT0001> ${'y'.repeat(1024 * 1024)}`));
    expect(res.status).toBe(413);
    await expectUntouched(before);
  });

  it('GitHub: a 1 MiB comment gets a "too long" reply with its full length, not a run', async () => {
    const r = relay;
    const body = validGitHubBody(`@agent-relay ${'y'.repeat(1024 * 1024)}`);
    const res = await r.postGitHub(body, { event: 'issue_comment', deliveryId: 'one-mib-1' });
    expect(res.status).toBe(202);
    const reply = await waitUntil(
      () => [...r.github.comments.values()].find((c) => /too long/i.test(c.body)),
      { timeoutMs: 8_000 },
    );
    // The whole prompt was measured, not a copy truncated to the context bound.
    expect(reply.body).toMatch(/1048576 characters/);
    expect(r.emulator.runs.count()).toBe(0);
    expect(serviceWrites()).toBe(0);
  });
});

describe('after the corpus', () => {
  it('the service is still up and ready', async () => {
    expect((await fetch(`${relay.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${relay.url}/readyz`)).status).toBe(200);
  });

  it('control: the same requests, well-formed, get through; a replay of each is dropped', async () => {
    const before = footprint();
    const slackBody = validSlackBody();
    expect((await relay.postSlack(slackBody)).status).toBe(200);
    expect((await relay.postSlack(slackBody)).status).toBe(200); // Slack retry, same event_id
    const ghBody = validGitHubBody();
    const delivery = { event: 'issue_comment', deliveryId: 'control-delivery-1' };
    expect((await relay.postGitHub(ghBody, delivery)).status).toBe(202);
    expect((await relay.postGitHub(ghBody, delivery)).status).toBe(200); // redelivery
    await waitUntil(() => relay.emulator.runs.count() === before.runs + 2, { timeoutMs: 8_000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(relay.rows().inbox).toBe(before.rows.inbox + 2);
    expect(relay.emulator.runs.count()).toBe(before.runs + 2);
  });
});

afterAll(() => {
  // Every line the services of this file logged (debug level), scanned for the test secrets.
  const text = logTexts.join('');
  expect(text.split('\n').length).toBeGreaterThan(100);
  expect(leakedSecrets(text)).toEqual([]);
});
