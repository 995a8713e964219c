/**
 * Shutdown keeps its promise: what was accepted and not finished is in the inbox or the
 * outbox when the process stops, and the next start finishes it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { githubWebhook, issueComment } from '../../src/demo/platform-requests.js';
import type { DemoIssue } from '../../src/demo/platform-requests.js';
import { FAST_TIMINGS, startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { startFakeGitHub } from '../../src/fakes/github-rest-api.js';
import type { FakeGitHub } from '../../src/fakes/github-rest-api.js';
import { startService } from '../../src/main.js';
import { openStore } from '../../src/store/index.js';

const dir = mkdtempSync(join(tmpdir(), 'relay-shutdown-'));
const TOKEN = 'ghp_shutdown_token';
let emulator: Emulator;
let github: FakeGitHub;
beforeAll(async () => {
  emulator = await startEmulator({ apiKey: 'k', timings: FAST_TIMINGS });
  github = await startFakeGitHub({ token: TOKEN });
});
afterAll(async () => {
  await Promise.all([emulator.close(), github.close()]);
  rmSync(dir, { recursive: true, force: true });
});

const ISSUE: DemoIssue = {
  owner: 'acme',
  repo: 'api',
  number: 3,
  title: 'Rate limiter drops requests',
  body: 'See the logs.',
  author: 'carol',
};
const SECRET = 'wh-secret';

async function start(databaseUrl: string) {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    POLL_INTERVAL_MS: '50',
    SHUTDOWN_TIMEOUT_MS: '8000',
    AGENT_API_URL: emulator.baseUrl,
    AGENT_API_KEY: 'k',
    GITHUB_WEBHOOK_SECRET: SECRET,
    GITHUB_TOKEN: TOKEN,
    GITHUB_API_URL: github.url,
  });
  return startService(config, {
    announce: false,
    engineOptions: { workerPollMs: 20, inboxRetryDelaysMs: [100, 100, 100, 100, 100] },
    platforms: { githubMinWriteIntervalMs: 0 },
  });
}

async function until(what: string, probe: () => boolean | Promise<boolean>, ms = 8_000) {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('shutdown', () => {
  it('a trigger accepted while the service is down waits in the inbox across a restart', async () => {
    const databaseUrl = join(dir, 'inbox.db');
    emulator.faults.failNext(1_000, 503);
    const first = await start(databaseUrl);
    const body = '@agent-relay look into the rate limiter';
    const status = await githubWebhook(
      { url: first.url, secret: SECRET },
      'issue_comment',
      issueComment(ISSUE, { id: 501, author: 'carol', body }),
    );
    expect(status).toBe(202);
    await until('an attempt on the service', () => emulator.requests.total() > 0);
    // Stop while the attempt is in flight: it finishes (fails), and the item goes back to pending.
    await first.stop();
    expect(emulator.runs.count()).toBe(0);

    const store = await openStore({ databaseUrl });
    expect(await store.inboxQueue.depth()).toBe(1);
    expect(await store.inbox.get(1)).toMatchObject({ status: 'pending', attempts: 1 });
    await store.close();

    emulator.faults.clear();
    const second = await start(databaseUrl);
    try {
      await until('the run', () =>
        emulator.runs.all().some((r) => r.prompt.includes('rate limiter')),
      );
      await until('the inbox to empty', async () => (await second.store.inboxQueue.depth()) === 0);
    } finally {
      await second.stop();
    }
  });

  it('a notification that could not be delivered waits in the outbox across a restart', async () => {
    const databaseUrl = join(dir, 'outbox.db');
    // GitHub takes no comment or reaction; it still answers the author's access check (with
    // GitHub down altogether, no run would start: access that cannot be checked is refused).
    github.failNext({ method: 'POST', status: 503, times: Number.POSITIVE_INFINITY });
    const first = await start(databaseUrl);
    const issue = { ...ISSUE, number: 4 };
    await githubWebhook(
      { url: first.url, secret: SECRET },
      'issue_comment',
      issueComment(issue, { id: 502, author: 'carol', body: '@agent-relay tidy the README' }),
    );
    await until('the run', () =>
      emulator.runs.all().some((r) => r.prompt.includes('tidy the README')),
    );
    await until('a queued notification', async () => (await first.store.outboxQueue.depth()) > 0);
    const t0 = Date.now();
    await first.stop();
    expect(Date.now() - t0).toBeLessThan(6_000);
    expect(github.commentsOn('acme', 'api', 4)).toHaveLength(0);

    const store = await openStore({ databaseUrl });
    expect(await store.outboxQueue.depth()).toBeGreaterThan(0);
    await store.close();

    github.clearFailures();
    const second = await start(databaseUrl);
    try {
      await until(
        'the status comment',
        () => github.commentsOn('acme', 'api', 4).length > 0,
        15_000,
      );
    } finally {
      await second.stop();
    }
  });
});
