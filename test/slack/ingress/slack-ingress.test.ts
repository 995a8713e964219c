import { describe, expect, it } from 'vitest';
import { createSlackIngress, SlackAuthError } from '../../../src/slack/ingress/slack-ingress.js';
import {
  TEST_SIGNING_SECRET,
  appMentionEvent,
  blockActionsBody,
  eventCallback,
  messageEvent,
  postSlack,
  slashCommandBody,
} from '../../helpers/slack.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { peopleOf, RecordingSink, startIngress } from './harness.js';
import { createRecordingLogger } from '../../helpers/test-logger.js';
import { worldPerTest } from '../../helpers/world-per-test.js';

const harness = worldPerTest(startIngress);

const nowSec = () => Math.floor(Date.now() / 1000);

describe('Slack ingress: verification', () => {
  it('answers the URL verification challenge', async () => {
    const { url } = await harness();
    const res = await postSlack(
      url,
      JSON.stringify({ type: 'url_verification', token: 't', challenge: 'c-123' }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ challenge: 'c-123' });
  });

  it('rejects a bad signature with 401 and records nothing', async () => {
    const { url, sink, api } = await harness();
    const body = eventCallback(
      appMentionEvent({ text: '<@UBOT0001> fix it', ts: '1700000001.000100' }),
    );
    const wrongSecret = await postSlack(url, body, { secret: 'not-the-secret' });
    const garbage = await postSlack(url, body, { signature: 'v0=deadbeef' });
    const unsigned = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect([wrongSecret.status, garbage.status, unsigned.status]).toEqual([401, 401, 401]);
    expect(sink.offered).toEqual([]);
    expect(api.calls.filter((c) => c.method !== 'auth.test')).toEqual([]);
  });

  it('rejects a timestamp outside the 5-minute window, either way', async () => {
    const { url, sink } = await harness();
    const event = () =>
      eventCallback(appMentionEvent({ text: '<@UBOT0001> hi', ts: '1700000001.000100' }));
    const stale = await postSlack(url, event(), { timestampSec: nowSec() - 6 * 60 });
    const future = await postSlack(url, event(), { timestampSec: nowSec() + 6 * 60 });
    expect([stale.status, future.status]).toEqual([401, 401]);
    expect(sink.offered).toEqual([]);
    const recent = await postSlack(url, event(), { timestampSec: nowSec() - 4 * 60 });
    expect(recent.status).toBe(200);
    expect(sink.triggers).toHaveLength(1);
  });

  it('measures the window with the injected clock', async () => {
    const fixed = Date.parse('2030-01-01T00:00:00Z');
    const { url, sink } = await harness({ clock: { now: () => fixed } });
    const body = eventCallback(
      appMentionEvent({ text: '<@UBOT0001> hi', ts: '1700000001.000100' }),
    );
    expect((await postSlack(url, body)).status).toBe(401);
    expect((await postSlack(url, body, { timestampSec: fixed / 1000 - 10 })).status).toBe(200);
    expect(sink.triggers[0]?.receivedAt).toBe('2030-01-01T00:00:00.000Z');
  });

  it('answers 415 to a signed event with another content type; accepts a charset', async () => {
    const { url, sink } = await harness();
    const body = eventCallback(
      appMentionEvent({ text: '<@UBOT0001> hi', ts: '1700000002.000100' }),
    );
    for (const contentType of ['text/plain', 'multipart/form-data']) {
      const res = await postSlack(url, body, { headers: { 'content-type': contentType } });
      expect(res.status).toBe(415);
      expect(await res.json()).toMatchObject({ ok: false, error: 'unsupported_media_type' });
    }
    expect(sink.offered).toEqual([]);
    const ok = await postSlack(url, body, {
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(ok.status).toBe(200);
    expect(sink.offered).toHaveLength(1);
  });

  it('answers 400 to a signed body that is not JSON, and 200 to an SSL check', async () => {
    const { url, sink } = await harness();
    expect((await postSlack(url, '{not json', { contentType: 'application/json' })).status).toBe(
      400,
    );
    const ssl = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'ssl_check=1&token=x',
    });
    expect(ssl.status).toBe(200);
    expect(sink.offered).toEqual([]);
  });
});

describe('Slack ingress: slash command', () => {
  it('turns a prompt into a trigger that anchors a new thread', async () => {
    const { url, sink } = await harness();
    const res = await postSlack(
      url,
      slashCommandBody({ text: 'model=fast fix the login bug', triggerId: '111.222.333' }),
    );
    expect(res.status).toBe(200);
    // The private acknowledgement rides on the HTTP answer.
    expect(await res.json()).toEqual({
      response_type: 'ephemeral',
      text: '👀 Got it: once the run starts, its status message will appear in <#CGENERAL1>. A mistake would be answered here, only to you.',
    });
    expect(sink.triggers).toHaveLength(1);
    const t = sink.triggers[0];
    expect(t).toMatchObject({
      platform: 'slack',
      kind: 'slash_command',
      threadKey: 'slack:T0000001:CGENERAL1:',
      responseUrl: 'https://hooks.slack.test/commands/T0000001/1/abc',
      actor: { id: 'UALICE01', name: 'alice' },
      text: 'model=fast fix the login bug',
      addressed: true,
      deliveryId: 'cmd:111.222.333',
      settingsScope: 'slack:T0000001:CGENERAL1',
      anchorsNewThread: true,
    });
    expect(t?.replyPrivatelyTo).toBeUndefined();
    expect(t?.triggerMessage).toBeUndefined();
  });

  it.each([
    'help',
    'list state=QUEUED',
    'status',
    'status run_1',
    'config model=x',
    'cancel',
    'model=',
  ])('answers "%s" privately to the caller', async (text) => {
    const { url, sink } = await harness();
    expect((await postSlack(url, slashCommandBody({ text }))).status).toBe(200);
    expect(sink.triggers).toHaveLength(1);
    expect(sink.triggers[0]?.replyPrivatelyTo).toBe('UALICE01');
    expect(sink.triggers[0]?.anchorsNewThread).toBeUndefined();
  });

  it('alone, opens the start form with its trigger id and queues nothing', async () => {
    const { url, sink, api } = await harness();
    const body = slashCommandBody({ text: '', triggerId: '13345224609.738474920.77' });
    expect((await postSlack(url, body)).status).toBe(200);
    expect(sink.offered).toEqual([]);
    const opened = api.okCallsTo('views.open');
    expect(opened).toHaveLength(1);
    expect(opened[0]?.params.trigger_id).toBe('13345224609.738474920.77');
    expect((opened[0]?.params.view as { callback_id?: string }).callback_id).toBe(
      'agent_relay_start_form',
    );
  });

  it('ignores another command', async () => {
    const { url, sink } = await harness();
    const res = await postSlack(url, slashCommandBody({ text: 'hello', command: '/other' }));
    expect(res.status).toBe(200);
    expect(sink.offered).toEqual([]);
  });

  it('says so when the inbox cannot take the command', async () => {
    const { url, sink } = await harness();
    sink.failing = true;
    const res = await postSlack(url, slashCommandBody({ text: 'fix it' }));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      response_type: 'ephemeral',
      text: expect.stringContaining('try again'),
    });
  });
});

describe('Slack ingress: mentions, messages, DMs', () => {
  it('turns a top-level mention into a trigger threaded on the mention', async () => {
    const { url, sink } = await harness();
    const body = eventCallback(
      appMentionEvent({
        text: '<@UBOT0001> please fix <https://x.test/a|the bug> &amp; more',
        ts: '1700000001.000100',
      }),
      { eventId: 'Ev0001' },
    );
    expect((await postSlack(url, body)).status).toBe(200);
    expect(sink.triggers).toEqual([
      expect.objectContaining({
        kind: 'mention',
        threadKey: 'slack:T0000001:CGENERAL1:1700000001.000100',
        // What the payload said of the person: their own workspace, for the access check.
        actor: { id: 'UALICE01', team: 'T0000001' },
        text: 'please fix the bug (https://x.test/a) & more',
        addressed: true,
        deliveryId: 'Ev0001',
        triggerMessage: {
          threadKey: 'slack:T0000001:CGENERAL1:1700000001.000100',
          id: 'CGENERAL1:1700000001.000100',
        },
        settingsScope: 'slack:T0000001:CGENERAL1',
      }),
    ]);
  });

  it('keys a mention inside a thread by the thread', async () => {
    const { url, sink } = await harness();
    const body = eventCallback(
      appMentionEvent({
        text: 'can <@UBOT0001> summarise this?',
        ts: '1700000009.000100',
        thread_ts: '1700000001.000100',
      }),
    );
    await postSlack(url, body);
    expect(sink.triggers[0]).toMatchObject({
      threadKey: 'slack:T0000001:CGENERAL1:1700000001.000100',
      text: 'can summarise this?',
      triggerMessage: { id: 'CGENERAL1:1700000009.000100' },
    });
  });

  it('treats a direct message like a mention', async () => {
    const { url, sink } = await harness();
    await postSlack(
      url,
      eventCallback(
        messageEvent({ channel_type: 'im', text: 'run the tests', ts: '1700000002.000100' }),
      ),
    );
    await postSlack(
      url,
      eventCallback(
        messageEvent({
          channel_type: 'im',
          text: 'and lint',
          ts: '1700000003.000100',
          thread_ts: '1700000002.000100',
        }),
      ),
    );
    expect(sink.triggers.map((t) => [t.kind, t.threadKey, t.text, t.addressed])).toEqual([
      ['direct_message', 'slack:T0000001:DALICE001:1700000002.000100', 'run the tests', true],
      ['direct_message', 'slack:T0000001:DALICE001:1700000002.000100', 'and lint', true],
    ]);
  });

  it('ignores bots (including itself), edits, joins and mentions that app_mention already covers', async () => {
    const { url, sink } = await harness({ replyInThreadWithoutMention: true });
    const thread = 'slack:T0000001:CGENERAL1:1700000001.000100';
    sink.threadsWithRuns.add(thread);
    const events = [
      appMentionEvent({ text: '<@UBOT0001> loop', ts: '1700000004.000100', bot_id: 'BOTHER01' }),
      appMentionEvent({ text: '<@UBOT0001> me', ts: '1700000004.000200', user: 'UBOT0001' }),
      appMentionEvent({ text: '<@UBOT0001> dm', ts: '1700000004.000300', channel: 'DALICE001' }),
      messageEvent({
        text: 'status update',
        ts: '1700000005.000100',
        bot_id: 'BBOT0001',
        subtype: 'bot_message',
        thread_ts: '1700000001.000100',
      }),
      messageEvent({
        text: 'mine',
        ts: '1700000005.000200',
        user: 'UBOT0001',
        thread_ts: '1700000001.000100',
      }),
      messageEvent({
        text: 'joined',
        ts: '1700000005.000300',
        subtype: 'channel_join',
        thread_ts: '1700000001.000100',
      }),
      messageEvent({
        text: '<@UBOT0001> again',
        ts: '1700000005.000400',
        thread_ts: '1700000001.000100',
      }),
      messageEvent({ text: 'top-level chatter', ts: '1700000005.000500' }),
      {
        type: 'message',
        subtype: 'message_changed',
        channel: 'CGENERAL1',
        ts: '1700000005.000600',
        message: { text: 'x' },
      },
      messageEvent({
        text: 'dm from a bot',
        ts: '1700000005.000700',
        channel_type: 'im',
        bot_id: 'BOTHER01',
      }),
    ];
    for (const event of events)
      expect((await postSlack(url, eventCallback(event))).status).toBe(200);
    expect(sink.offered).toEqual([]);
  });

  it('treats a plain thread reply as a follow-up only when enabled and the thread has a run', async () => {
    const reply = (ts: string, thread: string) =>
      eventCallback(messageEvent({ text: 'also add tests', ts, thread_ts: thread }));
    const off = await harness();
    off.sink.threadsWithRuns.add('slack:T0000001:CGENERAL1:1700000001.000100');
    await postSlack(off.url, reply('1700000006.000100', '1700000001.000100'));
    await postSlack(off.url, reply('1700000006.000150', '1700000001.000100'));
    expect(off.sink.offered).toEqual([]);
    // Slack counts these events against its hourly limit: the log says, once, to drop them.
    const told = off.logger.lines.filter((l) => /message\.channels/.test(l.msg ?? ''));
    expect(told).toHaveLength(1);
    await off.close();

    const on = await harness({ replyInThreadWithoutMention: true });
    on.sink.threadsWithRuns.add('slack:T0000001:CGENERAL1:1700000001.000100');
    await postSlack(on.url, reply('1700000006.000200', '1700000001.000100'));
    await postSlack(on.url, reply('1700000006.000300', '1700000002.000100'));
    expect(on.logger.lines.filter((l) => /message\.channels/.test(l.msg ?? ''))).toEqual([]);
    expect(on.sink.triggers.map((t) => [t.kind, t.threadKey, t.text, t.addressed])).toEqual([
      ['thread_reply', 'slack:T0000001:CGENERAL1:1700000001.000100', 'also add tests', true],
    ]);
  });

  it('creates one trigger for a delivery and its retries', async () => {
    const { url, sink } = await harness();
    const body = eventCallback(
      appMentionEvent({ text: '<@UBOT0001> go', ts: '1700000007.000100' }),
      { eventId: 'EvRETRY' },
    );
    const first = await postSlack(url, body);
    const retry = await postSlack(url, body, {
      headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' },
    });
    const again = await postSlack(url, body, {
      headers: { 'x-slack-retry-num': '2', 'x-slack-retry-reason': 'http_error' },
    });
    expect([first.status, retry.status, again.status]).toEqual([200, 200, 200]);
    expect(sink.offered.map((t) => t.deliveryId)).toEqual(['EvRETRY', 'EvRETRY', 'EvRETRY']);
    expect(sink.triggers).toHaveLength(1);
  });

  it("every event passes Bolt's authorize and ignoreSelf: the bot's own events stop there", async () => {
    const { url, sink, ingress } = await harness({ replyInThreadWithoutMention: true });
    sink.threadsWithRuns.add('slack:T0000001:CGENERAL1:1700000001.000100');
    // Middleware added now runs after Bolt's built-in ones (authorize, then ignoreSelf) and
    // before the listeners: it sees what they let through, with the identity authorize set.
    const passed: [string | undefined, string | undefined, unknown][] = [];
    ingress.app.use(async ({ body, context, next }) => {
      const b = body as { event_id?: string; event?: { type?: string } };
      passed.push([b.event_id, b.event?.type, context.botUserId]);
      await next();
    });
    const events = [
      eventCallback(appMentionEvent({ text: '<@UBOT0001> go', ts: '1700000010.000100' }), {
        eventId: 'EvMENTION',
      }),
      eventCallback(
        appMentionEvent({ text: '<@UBOT0001> me', ts: '1700000010.000200', user: 'UBOT0001' }),
        { eventId: 'EvSELF' },
      ),
      eventCallback(
        messageEvent({
          text: 'status update',
          ts: '1700000010.000300',
          bot_id: 'BBOT0001',
          subtype: 'bot_message',
          thread_ts: '1700000001.000100',
        }),
        { eventId: 'EvOWNPOST' },
      ),
      eventCallback(
        messageEvent({ channel_type: 'im', text: 'and lint', ts: '1700000011.000100' }),
        { eventId: 'EvDM' },
      ),
    ];
    for (const body of events) expect((await postSlack(url, body)).status).toBe(200);
    expect(passed).toEqual([
      ['EvMENTION', 'app_mention', 'UBOT0001'],
      ['EvDM', 'message', 'UBOT0001'],
    ]);
    expect(sink.triggers.map((t) => [t.deliveryId, t.kind])).toEqual([
      ['EvMENTION', 'mention'],
      ['EvDM', 'direct_message'],
    ]);
  });

  it('a malformed mention is answered 200 and queues nothing', async () => {
    const { url, sink, logger } = await harness();
    const body = eventCallback({ type: 'app_mention', text: 42 } as never, { eventId: 'EvBAD' });
    expect((await postSlack(url, body)).status).toBe(200);
    expect(sink.offered).toEqual([]);
    expect(logger.lines).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        msg: 'Slack app_mention payload not understood; ignored',
      }),
    );
  });

  it('answers 500 when the inbox write fails, so Slack delivers again', async () => {
    const { url, sink } = await harness();
    sink.failing = true;
    const body = eventCallback(
      appMentionEvent({ text: '<@UBOT0001> go', ts: '1700000008.000100' }),
      { eventId: 'EvFAIL' },
    );
    expect((await postSlack(url, body)).status).toBe(500);
    sink.failing = false;
    expect((await postSlack(url, body, { headers: { 'x-slack-retry-num': '1' } })).status).toBe(
      200,
    );
    expect(sink.triggers.map((t) => t.deliveryId)).toEqual(['EvFAIL']);
  });
});

describe('Slack ingress: the buttons of a private run choice', () => {
  it('Status and Cancel on an ephemeral choice answer in the channel, to the clicker only', async () => {
    const { url, sink } = await harness();
    for (const [actionId, value] of [
      ['agent_relay_status', 'run_s1'],
      ['agent_relay_cancel', 'run_c1'],
    ] as const) {
      const body = blockActionsBody({
        actionId,
        value,
        messageTs: '1700000020.000100',
        ephemeral: true,
      });
      expect((await postSlack(url, body)).status).toBe(200);
    }
    expect(sink.triggers).toEqual([
      expect.objectContaining({
        kind: 'status_button',
        threadKey: 'slack:T0000001:CGENERAL1:',
        text: 'status run_s1',
        replyPrivatelyTo: 'UALICE01',
      }),
      expect.objectContaining({
        kind: 'cancel_button',
        threadKey: 'slack:T0000001:CGENERAL1:',
        text: 'cancel run_c1',
        runId: 'run_c1',
      }),
    ]);
  });
});

describe('Slack ingress: Cancel button', () => {
  it('turns a click into a private cancel trigger for the run', async () => {
    const { url, sink } = await harness();
    const body = blockActionsBody({
      actionId: 'agent_relay_cancel',
      value: 'run_abc123',
      messageTs: '1700000010.000100',
      actionTs: '1700000111.000001',
    });
    expect((await postSlack(url, body)).status).toBe(200);
    expect(sink.triggers).toEqual([
      expect.objectContaining({
        kind: 'cancel_button',
        threadKey: 'slack:T0000001:CGENERAL1:1700000010.000100',
        text: 'cancel run_abc123',
        runId: 'run_abc123',
        addressed: true,
        replyPrivatelyTo: 'UALICE01',
        deliveryId: 'action:1700000111.000001',
        actor: { id: 'UALICE01', name: 'alice', team: 'T0000001' },
      }),
    ]);
  });

  it('keys a click on a status message inside a thread by that thread', async () => {
    const { url, sink } = await harness();
    const body = blockActionsBody({
      actionId: 'agent_relay_cancel',
      value: 'run_1',
      messageTs: '1700000012.000100',
      threadTs: '1700000011.000100',
    });
    await postSlack(url, body);
    expect(sink.triggers[0]?.threadKey).toBe('slack:T0000001:CGENERAL1:1700000011.000100');
  });

  it('acknowledges "Open session" clicks and ignores malformed buttons', async () => {
    const { url, sink } = await harness();
    const open = blockActionsBody({
      actionId: 'agent_relay_open_session',
      messageTs: '1700000010.000100',
    });
    const noValue = blockActionsBody({
      actionId: 'agent_relay_cancel',
      messageTs: '1700000010.000100',
    });
    const badValue = blockActionsBody({
      actionId: 'agent_relay_cancel',
      value: 'run 1; drop',
      messageTs: '1700000010.000100',
    });
    for (const body of [open, noValue, badValue])
      expect((await postSlack(url, body)).status).toBe(200);
    expect(sink.offered).toEqual([]);
  });
});

describe('Slack ingress: allowlists', () => {
  it('refuses a slash command from a channel or user not on the lists, ephemerally', async () => {
    const { url, sink } = await harness({
      allowedChannels: ['CALLOWED1'],
      allowedUsers: ['UALICE01'],
    });
    const wrongChannel = await postSlack(
      url,
      slashCommandBody({ text: 'fix it', channel: 'CGENERAL1' }),
    );
    expect(await wrongChannel.json()).toEqual({
      response_type: 'ephemeral',
      text: expect.stringContaining('not enabled in this conversation'),
    });
    const wrongUser = await postSlack(
      url,
      slashCommandBody({ text: 'fix it', channel: 'CALLOWED1', user: 'UMALLORY' }),
    );
    expect(await wrongUser.json()).toMatchObject({
      text: expect.stringContaining('not on the list'),
    });
    expect(sink.offered).toEqual([]);
    const allowed = await postSlack(
      url,
      slashCommandBody({ text: 'fix it', channel: 'CALLOWED1' }),
    );
    expect(allowed.status).toBe(200);
    expect(sink.triggers).toHaveLength(1);
  });

  it('refuses a mention and a button click privately, and ignores plain replies silently', async () => {
    const { url, sink, api } = await harness({
      allowedUsers: ['UALICE01'],
      replyInThreadWithoutMention: true,
    });
    sink.threadsWithRuns.add('slack:T0000001:CGENERAL1:1700000001.000100');
    const mention = eventCallback(
      appMentionEvent({
        user: 'UMALLORY',
        text: '<@UBOT0001> go',
        ts: '1700000020.000200',
        thread_ts: '1700000001.000100',
      }),
    );
    const click = blockActionsBody({
      actionId: 'agent_relay_cancel',
      value: 'run_1',
      user: 'UMALLORY',
      messageTs: '1700000010.000100',
    });
    const reply = eventCallback(
      messageEvent({
        user: 'UMALLORY',
        text: 'hm',
        ts: '1700000020.000300',
        thread_ts: '1700000001.000100',
      }),
    );
    for (const body of [mention, click, reply])
      expect((await postSlack(url, body)).status).toBe(200);
    await waitUntil(() => api.callsTo('chat.postEphemeral').length === 2);
    expect(api.callsTo('chat.postEphemeral').map((c) => c.params)).toEqual([
      expect.objectContaining({
        channel: 'CGENERAL1',
        user: 'UMALLORY',
        thread_ts: '1700000001.000100',
      }),
      expect.objectContaining({ channel: 'CGENERAL1', user: 'UMALLORY' }),
    ]);
    // The click was on a top-level message: the note goes to the channel, not a thread.
    expect(api.callsTo('chat.postEphemeral')[1]?.params.thread_ts).toBeUndefined();
    expect(sink.offered).toEqual([]);
  });
});

describe('Slack ingress: lifecycle', () => {
  it('logs that Slack is enabled and who the bot is', async () => {
    const { logger } = await harness();
    expect(logger.lines).toContainEqual(
      expect.objectContaining({
        level: 'info',
        msg: 'Slack enabled: HTTP mode on POST /slack/events',
        obj: expect.objectContaining({ botUserId: 'UBOT0001', teamId: 'T0000001' }),
      }),
    );
  });

  it('fails to start when Slack refuses the bot token', async () => {
    const { startFakeSlackApi } = await import('../../../src/fakes/slack-web-api.js');
    const api = await startFakeSlackApi();
    api.failNext('auth.test', { error: 'invalid_auth' });
    const ingress = createSlackIngress({
      signingSecret: TEST_SIGNING_SECRET,
      botToken: 'xoxb-wrong',
      apiUrl: api.url,
      commandName: '/agent',
      allowedChannels: [],
      allowedUsers: [],
      sink: new RecordingSink(),
      logger: createRecordingLogger(),
      people: peopleOf(api.url, createRecordingLogger()),
    });
    await expect(ingress.start()).rejects.toBeInstanceOf(SlackAuthError);
    await api.close();
  });

  it('starts when the Slack API is unreachable, with one line that says why and no stack trace', async () => {
    const { createServer } = await import('node:net');
    const closed = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const logger = createRecordingLogger();
    const ingress = createSlackIngress({
      signingSecret: TEST_SIGNING_SECRET,
      botToken: 'xoxb-test',
      apiUrl: `http://127.0.0.1:${closed}/api/`,
      commandName: '/agent',
      allowedChannels: [],
      allowedUsers: [],
      sink: new RecordingSink(),
      logger,
      people: peopleOf(`http://127.0.0.1:${closed}/api/`, createRecordingLogger()),
    });
    await ingress.start();
    await ingress.stop();
    const warnings = logger.lines.filter((l) => l.level === 'warn');
    expect(warnings.filter((l) => l.obj.component === 'slack-ingress')).toEqual([
      {
        level: 'warn',
        obj: expect.objectContaining({ reason: 'nothing listens there (ECONNREFUSED)' }),
        msg: 'Slack auth.test failed (nothing listens there (ECONNREFUSED)); will ask again on the first event',
      },
    ]);
    for (const warning of warnings) expect(warning.obj.err).toBeUndefined();
  });

  it('answers 404 on the HTTP endpoint in Socket Mode', async () => {
    const ingress = createSlackIngress({
      signingSecret: TEST_SIGNING_SECRET,
      botToken: 'xoxb-test',
      appToken: 'xapp-test',
      apiUrl: 'http://127.0.0.1:9/api/',
      commandName: '/agent',
      allowedChannels: [],
      allowedUsers: [],
      sink: new RecordingSink(),
      logger: createRecordingLogger(),
      people: peopleOf('http://127.0.0.1:9/api/', createRecordingLogger()),
    });
    expect(ingress.mode).toBe('socket');
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => void ingress.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const res = await postSlack(`http://127.0.0.1:${port}/slack/events`, '{}');
    expect(res.status).toBe(404);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
