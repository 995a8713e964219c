/**
 * What a person sees first, end to end through the real Bolt receiver (signed requests) and the
 * fake Slack Web API: a mention gets 👀 and "Starting…" while the service has not yet seen
 * the create call; a slash command's private answers travel through its `response_url`, also
 * in a channel the bot is not in, and its HTTP answer carries the acknowledgement.
 */
import { describe, expect, it } from 'vitest';
import { postSlack, slashCommandBody } from '../helpers/slack.js';
import { waitUntil } from '../helpers/wait-until.js';
import { startFlow } from './flow-harness.js';
import { worldPerTest } from '../helpers/world-per-test.js';

const start = worldPerTest(startFlow);

describe('the first sign of a new run', () => {
  it('a mention: 👀 and "Starting…" reach Slack before the service sees the create', async () => {
    const f = await start({ gateService: true });
    const gate = f.gate!;
    gate.freeze();
    const ts = await f.mention('<@UBOT0001> model=m-fast tidy the changelog');

    const starting = await waitUntil(() => f.botMessages().find((m) => m.thread_ts === ts));
    await waitUntil(() => f.api.message('CGENERAL1', ts)?.reactions.includes('eyes'));
    await waitUntil(() => gate.held() === 1, { message: 'the create waits at the gate' });
    expect(f.emulator.requests.get('POST /agent/runs') ?? 0).toBe(0);
    expect(starting.text).toContain('Starting…');
    expect(JSON.stringify(starting.blocks)).toContain('m-fast');

    gate.thaw();
    await waitUntil(
      () => f.api.message('CGENERAL1', starting.ts)?.text.includes('Waiting for a machine'),
      {
        message: 'the same message edited to the run',
      },
    );
    expect(f.botMessages().filter((m) => m.thread_ts === ts)).toHaveLength(1);
  });
});

describe('slash commands answer through their response_url', () => {
  it('`/agent help` in a channel the bot is not in: the help reaches the caller', async () => {
    const f = await start();
    f.api.removeBotFrom('CPRIVATE1');
    const responseUrl = f.api.responseUrl({ channel: 'CPRIVATE1', user: 'UALICE01' });
    const res = await f.post(slashCommandBody({ text: 'help', channel: 'CPRIVATE1', responseUrl }));
    expect(res.status).toBe(200);

    const answer = await waitUntil(() => f.api.responses.find((r) => r.status === 200));
    expect(answer.body).toMatchObject({ response_type: 'ephemeral' });
    expect(String(answer.body.text)).toMatch(/\/agent/);
    const shown = f.api.ephemerals.filter((m) => m.channel === 'CPRIVATE1');
    expect(shown).toHaveLength(1);
    expect(shown[0]!.onlyFor).toBe('UALICE01');
    // Nothing went through the Web API (which would have answered not_in_channel).
    expect(f.api.callsTo('chat.postEphemeral')).toHaveLength(0);
    expect(f.api.callsTo('chat.postMessage')).toHaveLength(0);
  });

  it('a usage error goes through the response_url too', async () => {
    const f = await start();
    const responseUrl = f.api.responseUrl({ channel: 'CGENERAL1', user: 'UALICE01' });
    await f.post(slashCommandBody({ text: 'colour=blue paint it', responseUrl }));
    const answer = await waitUntil(() => f.api.responses[0]);
    expect(String(answer.body.text)).toMatch(/colour/);
    expect(f.api.callsTo('chat.postEphemeral')).toHaveLength(0);
    expect(f.emulator.runs.count()).toBe(0);
  });

  it('a prompt: the HTTP answer acknowledges privately; the status message is public', async () => {
    const f = await start();
    const responseUrl = f.api.responseUrl({ channel: 'CGENERAL1', user: 'UALICE01' });
    const res = await f.post(slashCommandBody({ text: 'write the release notes', responseUrl }));
    expect(res.status).toBe(200);
    const ack = (await res.json()) as { response_type?: string; text?: string };
    expect(ack.response_type).toBe('ephemeral');
    expect(ack.text).toContain('<#CGENERAL1>');
    const status = await waitUntil(() => f.botMessages().find((m) => m.thread_ts === undefined));
    expect(status.onlyFor).toBeUndefined();
    await waitUntil(() => f.emulator.runs.count() === 1);
  });

  it('a response_url Slack refuses (used up): the answer falls back to chat.postEphemeral', async () => {
    const f = await start();
    const responseUrl = f.api.responseUrl({ channel: 'CGENERAL1', user: 'UALICE01' });
    // Use the URL up (Slack allows 5 posts).
    for (let i = 0; i < 5; i++) {
      await fetch(responseUrl, { method: 'POST', body: JSON.stringify({ text: `use ${i}` }) });
    }
    await f.post(slashCommandBody({ text: 'help', responseUrl }));
    await waitUntil(() => f.api.okCallsTo('chat.postEphemeral')[0]);
    expect(f.api.responses.at(-1)).toMatchObject({ status: 404 });
  });

  it('a response_url outside Slack is never posted to', async () => {
    const f = await start();
    const responseUrl = 'https://example.invalid/steal';
    await f.post(slashCommandBody({ text: 'help', responseUrl }));
    await waitUntil(() => f.api.okCallsTo('chat.postEphemeral')[0]);
    expect(f.api.responses).toHaveLength(0);
  });
});

describe('the signature still guards the slash command', () => {
  it('a slash command with a bad signature is refused and answers nobody', async () => {
    const f = await start();
    const responseUrl = f.api.responseUrl({ channel: 'CGENERAL1', user: 'UALICE01' });
    const res = await postSlack(f.url, slashCommandBody({ text: 'help', responseUrl }), {
      secret: 'not-the-signing-secret',
    });
    expect(res.status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(f.api.responses).toHaveLength(0);
  });
});

describe('a slash command where the bot may not post', () => {
  it('the caller is told privately how to fix it', async () => {
    const f = await start();
    f.api.removeBotFrom('CPRIVATE1');
    const responseUrl = f.api.responseUrl({ channel: 'CPRIVATE1', user: 'UALICE01' });
    await f.post(slashCommandBody({ text: 'tidy up', channel: 'CPRIVATE1', responseUrl }));
    const told = await waitUntil(() => f.api.responses.find((r) => r.status === 200));
    expect(String(told.body.text)).toContain("I can't post in <#CPRIVATE1>");
    expect(String(told.body.text)).toContain('/invite');
    expect(f.api.ephemerals.filter((m) => m.channel === 'CPRIVATE1')[0]?.onlyFor).toBe('UALICE01');
  });
});
