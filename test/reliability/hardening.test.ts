/**
 * Hardening of the running service, tried as an attacker would, with real-shaped requests on
 * loopback: `/metrics` behind its token, per-route body limits enforced while reading,
 * headers that must arrive in seconds, and debug logs that hold no message text read from
 * Slack.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { validGitHubBody } from './hostile-github.js';
import { appMentionEvent, eventCallback, seedThread } from '../helpers/slack.js';
import { waitUntil } from '../helpers/wait-until.js';
import { validSlackBody } from './hostile-requests.js';
import { relayPerTest } from '../helpers/relay.js';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
const start = relayPerTest();

describe('/metrics', () => {
  it('with METRICS_TOKEN set, answers 401 without the bearer token or with another one', async () => {
    const relay = await start({ env: { METRICS_TOKEN } });
    const bare = await fetch(`${relay.url}/metrics`);
    expect(bare.status).toBe(401);
    expect(await bare.text()).not.toContain('agent_relay_');
    const wrong = await fetch(`${relay.url}/metrics`, {
      headers: { authorization: 'Bearer not-the-metrics-token-at-all' },
    });
    expect(wrong.status).toBe(401);
    const ok = await fetch(`${relay.url}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('agent_relay_');
  });
});

describe('request bodies', () => {
  it("Slack's route refuses a 600 KiB event with 413 and keeps nothing", async () => {
    const relay = await start();
    const big = await relay.postSlack(validSlackBody(`<@UBOT0001> ${'y'.repeat(600 * 1024)}`));
    expect(big.status).toBe(413);
    expect(relay.rows().inbox).toBe(0);
  });

  it('GitHub takes a delivery of 1.5 MiB and refuses one of 3 MiB with 413, keeping nothing', async () => {
    const relay = await start();
    const ok = validGitHubBody(`@agent-relay ${'y'.repeat(1.5 * 1024 * 1024)}`);
    const res = await relay.postGitHub(ok, { event: 'issue_comment', deliveryId: 'big-1' });
    expect(res.status).toBe(202);
    const big = validGitHubBody(`@agent-relay ${'y'.repeat(3 * 1024 * 1024)}`);
    const refused = await relay.postGitHub(big, { event: 'issue_comment', deliveryId: 'big-2' });
    expect(refused.status).toBe(413);
    expect(relay.rows().inbox).toBe(1);
  });

  it('GitHub refuses a declared 25 MiB body at once, before reading a byte of it', async () => {
    const relay = await start();
    const { port } = new URL(relay.url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      'POST /github/webhooks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${25 * 1024 * 1024}\r\n\r\n{`,
    );
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('\r\n\r\n')) resolve(text);
      });
      socket.on('close', () => resolve(text));
    });
    socket.destroy();
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
  });

  it('a client that trickles its headers is cut off within seconds', async () => {
    const relay = await start();
    const { port } = new URL(relay.url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const started = Date.now();
    socket.write('POST /slack/events HTTP/1.1\r\nHost: x\r\n');
    const timer = setInterval(() => socket.write('X-Slow: 1\r\n'), 500);
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', () => resolve(text));
    });
    clearInterval(timer);
    expect(Date.now() - started).toBeLessThan(13_000);
    expect(answer).toMatch(/^HTTP\/1\.1 408|^$/);
  }, 20_000);
});

describe('debug logging', () => {
  it('never logs the text of a thread read from Slack, nor the prompt it sends', async () => {
    const relay = await start();
    const [root] = seedThread(
      relay.slack,
      'CPRIVATE1',
      ['UBOB0001', 'the merger closes on friday: codename bluefin-4471'],
      ['UBOB0001', 'do not share: salary bands revision-9913'],
    );
    const body = eventCallback(
      appMentionEvent({
        text: '<@UBOT0001> summarise this for the board',
        ts: '1700009999.000100',
        channel: 'CPRIVATE1',
        thread_ts: root,
      }),
      { eventId: 'EvLOGTEXT0001' },
    );
    expect((await relay.postSlack(body)).status).toBe(200);
    await waitUntil(() => relay.slack.okCallsTo('conversations.replies').length > 0, {
      timeoutMs: 8_000,
    });
    await waitUntil(() => relay.emulator.runs.count() === 1, { timeoutMs: 8_000 });
    // Slack's client logged its calls at debug (the lines exist), without their bodies.
    const text = relay.logs.text();
    expect(text).toContain('http request result');
    expect(text).not.toContain('bluefin-4471');
    expect(text).not.toContain('revision-9913');
    expect(text).not.toContain('summarise this for the board');
  });
});
