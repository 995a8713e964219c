import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeliveryError } from '../../../src/core/ports/index.js';
import { notice, runStatusMessage } from '../../../src/core/message/render-model.js';
import { toRunView } from '../../../src/core/message/run-view.js';
import type { SlackNotifier } from '../../../src/slack/notify/notifier.js';
import { createSlackNotifier } from '../../../src/slack/notify/notifier.js';
import type { FakeSlackApi } from '../../../src/fakes/slack-web-api.js';
import { startFakeSlackApi } from '../../../src/fakes/slack-web-api.js';
import { createRecordingLogger, type LogLine } from '../../helpers/test-logger.js';
import { rejectionOf } from '../../helpers/rejection.js';
import { notifierLoggingTo, seedThread } from './thread-reads.js';

let api: FakeSlackApi;
let notifier: SlackNotifier;

beforeEach(async () => {
  api = await startFakeSlackApi();
  notifier = createSlackNotifier({
    botToken: 'xoxb-notifier',
    apiUrl: api.url,
    logger: createRecordingLogger(),
  });
});
afterEach(async () => {
  await api.close();
});

const view = (state: string) =>
  toRunView({ run: { run_id: 'run_1', title: 'Fix the build', state }, record: { applied: [] } });
const hello = notice('info', 'hello');

const rejection = (p: Promise<unknown>) => rejectionOf(p, DeliveryError);

describe('Slack notifier: post, update, react', () => {
  it('posts at the channel top level and returns the new thread it anchors', async () => {
    const result = await notifier.post(
      { threadKey: 'slack:T0000001:CGENERAL1:' },
      runStatusMessage(view('QUEUED')),
    );
    const [call] = api.okCallsTo('chat.postMessage');
    expect(call?.token).toBe('xoxb-notifier');
    expect(call?.params).toMatchObject({
      channel: 'CGENERAL1',
      text: expect.stringContaining('Fix the build'),
    });
    expect(call?.params.thread_ts).toBeUndefined();
    expect(Array.isArray(call?.params.blocks)).toBe(true);
    const ts = api.messages[0]?.ts ?? '';
    expect(result).toEqual({
      ref: { threadKey: `slack:T0000001:CGENERAL1:${ts}`, id: `CGENERAL1:${ts}` },
      newThreadKey: `slack:T0000001:CGENERAL1:${ts}`,
    });
  });

  it('posts into a thread, and privately (ephemeral) when asked', async () => {
    const key = 'slack:T0000001:CGENERAL1:1700000001.000100';
    const inThread = await notifier.post({ threadKey: key }, hello);
    expect(inThread.newThreadKey).toBeUndefined();
    expect(api.okCallsTo('chat.postMessage')[0]?.params).toMatchObject({
      thread_ts: '1700000001.000100',
    });
    await notifier.post({ threadKey: key, privateTo: 'UALICE01' }, hello);
    await notifier.post({ threadKey: 'slack:T0000001:CGENERAL1:', privateTo: 'UALICE01' }, hello);
    const ephemeral = api.okCallsTo('chat.postEphemeral').map((c) => c.params);
    expect(ephemeral[0]).toMatchObject({
      channel: 'CGENERAL1',
      user: 'UALICE01',
      thread_ts: '1700000001.000100',
    });
    expect(ephemeral[1]).toMatchObject({ channel: 'CGENERAL1', user: 'UALICE01' });
    expect(ephemeral[1]?.thread_ts).toBeUndefined();
  });

  it('does not edit a message to what it already says', async () => {
    const { ref } = await notifier.post(
      { threadKey: 'slack:T0000001:CGENERAL1:' },
      runStatusMessage(view('QUEUED')),
    );
    await notifier.update(ref, runStatusMessage(view('QUEUED')));
    await notifier.update(ref, runStatusMessage(view('INPROGRESS')));
    await notifier.update(ref, runStatusMessage(view('INPROGRESS')));
    expect(api.okCallsTo('chat.update')).toHaveLength(1);
  });

  it('edits a message in place', async () => {
    const { ref } = await notifier.post(
      { threadKey: 'slack:T0000001:CGENERAL1:' },
      runStatusMessage(view('QUEUED')),
    );
    await notifier.update(ref, runStatusMessage(view('SUCCEEDED')));
    const message = api.messages[0];
    expect(message?.history.map((h) => h.text)).toEqual([
      '⏳ Fix the build: Waiting for a machine',
      '✅ Fix the build: Succeeded',
    ]);
  });

  it('reacts with a distinct emoji per outcome and treats already_reacted as done', async () => {
    const target = {
      threadKey: 'slack:T0000001:CGENERAL1:1700000001.000100',
      id: 'CGENERAL1:1700000001.000100',
    };
    for (const r of ['seen', 'accepted', 'succeeded', 'failed', 'blocked', 'cancelled'] as const) {
      await notifier.react(target, r);
    }
    await notifier.react(target, 'seen');
    expect(api.message('CGENERAL1', '1700000001.000100')?.reactions).toEqual([
      'eyes',
      'ok_hand',
      'white_check_mark',
      'x',
      'double_vertical_bar',
      'no_entry_sign',
    ]);
  });
});

describe('Slack notifier: reactions show the current state only', () => {
  it('removes the superseded reactions and keeps the new one', async () => {
    const target = {
      threadKey: 'slack:T0000001:CGENERAL1:1700000002.000100',
      id: 'CGENERAL1:1700000002.000100',
    };
    await notifier.react(target, 'seen');
    await notifier.react(target, 'blocked');
    await notifier.react(target, 'succeeded', { replaces: ['seen', 'accepted', 'blocked'] });
    expect(api.message('CGENERAL1', '1700000002.000100')?.reactions).toEqual(['white_check_mark']);
  });
});

describe('Slack notifier: failures become DeliveryErrors at once', () => {
  it('turns a 429 into rate_limited with Retry-After, without waiting', async () => {
    api.failNext('chat.postMessage', { status: 429, retryAfter: 30 });
    const started = Date.now();
    const err = await rejection(notifier.post({ threadKey: 'slack:T0000001:CGENERAL1:' }, hello));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(err).toMatchObject({ code: 'rate_limited', retryable: true, retryAfterMs: 30_000 });
    expect(api.callsTo('chat.postMessage')).toHaveLength(1);
  });

  it('makes 5xx and unreachable Slack retryable, and gone channels permanent', async () => {
    api.failNext('chat.update', { status: 503 });
    const ref = {
      threadKey: 'slack:T0000001:CGENERAL1:1700000001.000100',
      id: 'CGENERAL1:1700000001.000100',
    };
    expect(await rejection(notifier.update(ref, hello))).toMatchObject({
      code: 'unavailable',
      retryable: true,
    });

    for (const error of [
      'channel_not_found',
      'not_in_channel',
      'is_archived',
      'message_not_found',
    ]) {
      api.failNext('chat.postMessage', { error });
      const err = await rejection(notifier.post({ threadKey: ref.threadKey }, hello));
      expect(err.retryable, error).toBe(false);
    }

    const offline = createSlackNotifier({
      botToken: 'x',
      apiUrl: 'http://127.0.0.1:9/api/',
      logger: createRecordingLogger(),
    });
    expect(await rejection(offline.react(ref, 'seen'))).toMatchObject({
      code: 'unavailable',
      retryable: true,
    });
  });

  it('rejects keys and refs that are not Slack ones as invalid', async () => {
    expect(await rejection(notifier.post({ threadKey: 'github:o/r#1' }, hello))).toMatchObject({
      code: 'invalid',
      retryable: false,
    });
    expect(
      await rejection(notifier.react({ threadKey: 'x', id: 'issue:12' }, 'seen')),
    ).toMatchObject({ code: 'invalid' });
    expect(api.calls.filter((c) => c.method !== 'auth.test')).toEqual([]);
  });

  it('falls back to text when Slack rejects the blocks', async () => {
    api.failNext('chat.postMessage', { error: 'invalid_blocks' });
    await notifier.post({ threadKey: 'slack:T0000001:CGENERAL1:1700000001.000100' }, hello);
    const calls = api.callsTo('chat.postMessage');
    expect(calls).toHaveLength(2);
    expect(calls[1]?.params.blocks).toBeUndefined();
    expect(calls[1]?.params.text).toBe('hello');
  });
});

describe('Slack notifier: thread context', () => {
  it('returns the earlier messages, oldest first, bots marked, trigger and later ones left out', async () => {
    const root = api.seedMessage({
      channel: 'CGENERAL1',
      user: 'UBOB0001',
      text: 'The deploy is failing on <https://ci.test/1|CI>',
    });
    api.seedMessage({
      channel: 'CGENERAL1',
      bot_id: 'BCI00001',
      text: 'Build #1 failed',
      thread_ts: root,
    });
    api.seedMessage({
      channel: 'CGENERAL1',
      user: 'UCAROL01',
      text: 'I think it is the &lt;env&gt; change',
      thread_ts: root,
    });
    const trigger = api.seedMessage({
      channel: 'CGENERAL1',
      user: 'UALICE01',
      text: '<@UBOT0001> fix it',
      thread_ts: root,
    });
    api.seedMessage({ channel: 'CGENERAL1', user: 'UBOB0001', text: 'later', thread_ts: root });
    const key = `slack:T0000001:CGENERAL1:${root}`;
    const messages = await notifier.fetchThreadMessages?.(key, {
      threadKey: key,
      id: `CGENERAL1:${trigger}`,
    });
    expect(messages).toEqual([
      { author: 'UBOB0001', text: 'The deploy is failing on CI (https://ci.test/1)' },
      { author: 'BCI00001', text: 'Build #1 failed', isBot: true },
      { author: 'UCAROL01', text: 'I think it is the <env> change' },
    ]);
  });

  it('answers nothing for the thread root itself, without asking Slack', async () => {
    const root = api.seedMessage({ channel: 'CGENERAL1', text: 'first', user: 'UBOB0001' });
    const key = `slack:T0000001:CGENERAL1:${root}`;
    const before = api.callsTo('conversations.replies').length;
    const messages = await notifier.fetchThreadMessages?.(key, {
      threadKey: key,
      id: `CGENERAL1:${root}`,
    });
    expect(messages).toEqual([]);
    expect(api.callsTo('conversations.replies')).toHaveLength(before);
  });

  it("under Slack's limit on history reads (apps outside the Marketplace): no context, then one page of 15", async () => {
    const lines: LogLine[] = [];
    const limited = notifierLoggingTo(api, lines);
    const key = seedThread(api, 40);
    const before = api.callsTo('conversations.replies').length;
    // Slack answers 429: the run gets no thread context rather than failing, and the log says why.
    api.failNext('conversations.replies', { status: 429, retryAfter: 60 });
    expect(await limited.fetchThreadMessages?.(key)).toEqual([]);
    const said = lines.find((l) => l.level === 'warn' && /Marketplace/.test(l.msg ?? ''));
    expect(said?.obj).toMatchObject({ teamId: 'T0000001', method: 'conversations.replies' });
    // From then on: one request of at most 15 messages in that workspace.
    const messages = (await limited.fetchThreadMessages?.(key)) ?? [];
    const reads = api.callsTo('conversations.replies').slice(before + 1);
    expect(reads).toHaveLength(1);
    expect(Number(reads[0]!.params.limit)).toBe(15);
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.length).toBeLessThanOrEqual(15);
  });

  it('keeps the newest messages within the count and character bounds', async () => {
    const bounded = createSlackNotifier({
      botToken: 'x',
      apiUrl: api.url,
      logger: createRecordingLogger(),
      maxThreadMessages: 3,
      maxThreadChars: 250,
    });
    const key = seedThread(api, 6, { text: (i) => `m${i} ${'y'.repeat(100)}` });
    const messages = (await bounded.fetchThreadMessages?.(key)) ?? [];
    expect(messages.map((m) => m.text.slice(0, 2))).toEqual(['m5', 'm6']);
    expect(messages.reduce((n, m) => n + m.text.length, 0)).toBeLessThanOrEqual(250);
  });
});

describe('Slack notifier: one message per notification across retries', () => {
  const top = { threadKey: 'slack:T0000001:CGENERAL1:' };

  it('marks a keyed post with message metadata', async () => {
    await notifier.post(top, hello, { key: '7.1700000000000' });
    const [call] = api.okCallsTo('chat.postMessage');
    expect(call?.params.metadata).toEqual({
      event_type: 'agent_relay_notification',
      event_payload: { key: '7.1700000000000' },
    });
  });

  it('answers with the earlier post instead of posting again (channel top level)', async () => {
    const since = Date.now();
    const first = await notifier.post(top, hello, { key: 'k1' });
    const again = await notifier.post(top, hello, { key: 'k1', mayExist: { since } });
    expect(again).toEqual(first);
    expect(api.okCallsTo('chat.postMessage')).toHaveLength(1);
    const [lookup] = api.okCallsTo('conversations.history');
    expect(lookup?.params).toMatchObject({ channel: 'CGENERAL1', include_all_metadata: 'true' });
  });

  it('looks in the thread for a threaded post, and posts when nothing carries the key', async () => {
    const parent = api.seedMessage({ channel: 'CGENERAL1', text: 'hi', user: 'UALICE01' });
    const thread = { threadKey: `slack:T0000001:CGENERAL1:${parent}` };
    const since = Date.now();
    const first = await notifier.post(thread, hello, { key: 'k2' });
    expect(await notifier.post(thread, hello, { key: 'k2', mayExist: { since } })).toEqual(first);
    await notifier.post(thread, hello, { key: 'k3', mayExist: { since } });
    expect(api.okCallsTo('chat.postMessage')).toHaveLength(2);
    expect(api.okCallsTo('conversations.replies')).toHaveLength(2);
    expect(api.okCallsTo('conversations.history')).toHaveLength(0);
  });

  it('posts anyway when Slack refuses the look for good, and retries later when it is busy', async () => {
    api.failNext('conversations.history', { error: 'missing_scope' });
    await notifier.post(top, hello, { key: 'k4', mayExist: { since: Date.now() } });
    expect(api.okCallsTo('chat.postMessage')).toHaveLength(1);

    api.failNext('conversations.history', { status: 429, retryAfter: 2 });
    const err = await rejection(notifier.post(top, hello, { key: 'k5', mayExist: { since: 0 } }));
    expect(err).toMatchObject({ code: 'rate_limited', retryable: true });
    expect(api.okCallsTo('chat.postMessage')).toHaveLength(1);
  });

  it('does not look when no attempt could have posted it', async () => {
    await notifier.post(top, hello, { key: 'k6' });
    expect(api.callsTo('conversations.history')).toHaveLength(0);
  });
});
