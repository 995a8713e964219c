/**
 * The Slack flows end to end: signed requests into the real Bolt receiver, the runs
 * engine over SQLite, the in-process emulator, and the Slack notifier against a fake Web API.
 */
import { describe, expect, it } from 'vitest';
import { CANCEL_ACTION_ID } from '../../src/slack/render/render-blocks.js';
import {
  appMentionEvent,
  blockActionsBody,
  eventCallback,
  seedThread,
  slashCommandBody,
} from '../helpers/slack.js';
import { waitUntil } from '../helpers/wait-until.js';
import type { FakeMessage } from '../../src/fakes/slack-web-api.js';
import type { Flow } from './flow-harness.js';
import { startFlow } from './flow-harness.js';
import { worldPerTest } from '../helpers/world-per-test.js';

const start = worldPerTest(startFlow);

const STATES = [
  'Starting…',
  'Waiting for a machine',
  'Getting ready',
  'Running',
  'Succeeded',
  'Failed',
  'Cancelled',
  'Waiting for input',
];
function statesOf(m: FakeMessage | undefined): string[] {
  return (m?.history ?? []).map((h) => STATES.find((s) => h.text.endsWith(`: ${s}`)) ?? h.text);
}

function isStatus(m: FakeMessage): boolean {
  return JSON.stringify(m.blocks ?? []).includes('"type":"header"');
}

function statusMessage(f: Flow): FakeMessage | undefined {
  return f.botMessages().find(isStatus);
}

/** The run id the Cancel button of a rendered message carries. */
function cancelValue(m: FakeMessage | undefined): string | undefined {
  for (const block of (m?.blocks ?? []) as {
    type?: string;
    elements?: { action_id?: string; value?: string }[];
  }[]) {
    const button =
      block.type === 'actions'
        ? block.elements?.find((e) => e.action_id === CANCEL_ACTION_ID)
        : undefined;
    if (button?.value !== undefined) return button.value;
  }
  return undefined;
}

describe('Slack flow: starting runs', () => {
  it('slash command: status message for all, edited through the states, then a reply to the requester', async () => {
    const f = await start();
    const res = await f.post(slashCommandBody({ text: 'model=fast Fix the flaky login test' }));
    expect(res.status).toBe(200);

    const status = await waitUntil(() => statusMessage(f));
    expect(status.thread_ts).toBeUndefined(); // top level: it anchors the run's thread
    const outcome = await waitUntil(
      () =>
        f
          .botMessages()
          .find((m) => m.thread_ts === status.ts && !isStatus(m) && m.text.includes('Succeeded')),
      { timeoutMs: 10_000 },
    );
    expect(outcome.text).toContain('<@UALICE01>');

    const seen = statesOf(f.api.message('CGENERAL1', status.ts));
    // Posted at pickup as "Starting…", then edited to the service's states.
    expect(seen.slice(0, 2)).toEqual(['Starting…', 'Waiting for a machine']);
    expect(seen.at(-1)).toBe('Succeeded');
    expect(seen.length).toBeGreaterThanOrEqual(3);
    const order = seen.map((s) => STATES.indexOf(s));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(JSON.stringify(f.api.message('CGENERAL1', status.ts)?.blocks)).not.toContain(
      CANCEL_ACTION_ID,
    );

    const [run] = f.emulator.runs.all();
    expect(run?.prompt).toContain('Fix the flaky login test');
    expect(run?.metadata).toMatchObject({ relay_platform: 'slack' });
  });

  it('mention at top level: 👀, status in the mention thread, ✅ (alone) when done', async () => {
    const f = await start();
    const ts = await f.mention('<@UBOT0001> update the README');

    const status = await waitUntil(() => statusMessage(f));
    expect(status.thread_ts).toBe(ts);
    await waitUntil(() => f.api.message('CGENERAL1', ts)?.reactions.includes('white_check_mark'), {
      timeoutMs: 10_000,
    });
    // 👀 said it was seen; once it is done, ✅ alone says where it stands.
    expect(f.api.okCallsTo('reactions.add')[0]?.params.name).toBe('eyes');
    expect(f.api.message('CGENERAL1', ts)?.reactions).toEqual(['white_check_mark']);
  });

  it('mention inside a thread without a run: the earlier messages reach the agent', async () => {
    const f = await start();
    const [root] = seedThread(
      f.api,
      'CGENERAL1',
      ['UBOB0001', 'The nightly deploy fails on step 4'],
      ['UCAROL01', 'Started after the cache change'],
    );
    await f.mention('<@UBOT0001> find the cause', root);

    const [run] = await waitUntil(() =>
      f.emulator.runs.all().length > 0 ? f.emulator.runs.all() : undefined,
    );
    expect(run?.prompt).toContain('find the cause');
    expect(run?.prompt).toContain('The nightly deploy fails on step 4');
    expect(run?.prompt).toContain('Started after the cache change');
    expect(f.api.okCallsTo('conversations.replies')[0]?.params).toMatchObject({
      channel: 'CGENERAL1',
      ts: root,
    });
    const status = await waitUntil(() => statusMessage(f));
    expect(status.thread_ts).toBe(root);
  });

  it('retries and duplicate deliveries create one run', async () => {
    const f = await start();
    const body = eventCallback(
      appMentionEvent({ text: '<@UBOT0001> once only', ts: '1699999999.000100' }),
      {
        eventId: 'EvDUP1',
      },
    );
    await f.post(body);
    await f.post(body, { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' });
    await f.post(body, { 'x-slack-retry-num': '2', 'x-slack-retry-reason': 'http_timeout' });
    await waitUntil(() => statusMessage(f));
    // Every delivery was answered, so each is in the inbox or was dropped as a repeat: once
    // the inbox is empty and a run exists, no other run can still be on its way.
    await waitUntil(
      async () => f.emulator.runs.count() >= 1 && (await f.store.inboxQueue.depth()) === 0,
    );
    expect(f.emulator.runs.count()).toBe(1);
  });
});

describe('Slack flow: steering', () => {
  it('BLOCKED asks the requester, a plain thread reply reaches the service as a follow-up', async () => {
    const f = await start();
    const ts = await f.mention('<@UBOT0001> migrate the db [block]');

    const ask = await waitUntil(
      () =>
        f
          .botMessages()
          .find(
            (m) => m.thread_ts === ts && !isStatus(m) && m.text.includes('Waiting for your input'),
          ),
      { timeoutMs: 10_000 },
    );
    expect(ask.text).toContain('<@UALICE01>');
    await waitUntil(() =>
      f.api.message('CGENERAL1', ts)?.reactions.includes('double_vertical_bar'),
    );

    const reply = await f.reply(ts, 'use the main branch');

    const followup = await waitUntil(() => f.emulator.followups[0]);
    expect(followup.message).toContain('use the main branch');
    expect(followup.runId).toBe(f.emulator.runs.all()[0]?.run_id);
    await waitUntil(() => f.api.message('CGENERAL1', reply)?.reactions.includes('ok_hand'));
  });

  it('Cancel button: the run is cancelled and the status message says so', async () => {
    const f = await start();
    const res = await f.post(slashCommandBody({ text: 'rewrite everything [slow]' }));
    expect(res.status).toBe(200);
    const status = await waitUntil(() => {
      const m = statusMessage(f);
      return m !== undefined && m.text.endsWith(': Running') ? m : undefined;
    });
    const runId = cancelValue(status);
    expect(runId).toBe(f.emulator.runs.all()[0]?.run_id);

    // Someone else may not cancel (no allowlist: only the requester).
    await f.post(
      blockActionsBody({
        actionId: CANCEL_ACTION_ID,
        value: runId,
        user: 'UMALLORY',
        messageTs: status.ts,
      }),
    );
    await waitUntil(() =>
      f.api.okCallsTo('chat.postEphemeral').some((c) => c.params.user === 'UMALLORY'),
    );
    expect(f.emulator.runs.all()[0]?.state).not.toBe('CANCELLED');

    await f.post(
      blockActionsBody({ actionId: CANCEL_ACTION_ID, value: runId, messageTs: status.ts }),
    );
    await waitUntil(() => f.emulator.runs.all()[0]?.state === 'CANCELLED');
    const edited = await waitUntil(() => {
      const m = f.api.message('CGENERAL1', status.ts);
      return m?.text.endsWith(': Cancelled') ? m : undefined;
    });
    expect(JSON.stringify(edited.blocks)).not.toContain(CANCEL_ACTION_ID);
  });
});

describe('Slack flow: answers to the caller', () => {
  it('help, config, list and status answer ephemerally', async () => {
    const f = await start();
    // A workspace admin (users.info) may change the channel's defaults.
    f.api.people.set('UALICE01', { is_admin: true });
    const ephemeral = (n: number) => waitUntil(() => f.api.okCallsTo('chat.postEphemeral')[n]);

    await f.post(slashCommandBody({ text: 'help' }));
    expect(JSON.stringify((await ephemeral(0)).params.blocks)).toContain('How to use');

    await f.post(slashCommandBody({ text: 'config model=fast-model' }));
    expect((await ephemeral(1)).params.text).toContain('Defaults updated: model');
    await f.post(slashCommandBody({ text: 'config' }));
    expect(JSON.stringify((await ephemeral(2)).params.blocks)).toContain('fast-model');

    await f.post(slashCommandBody({ text: 'Document the API' }));
    await waitUntil(() => statusMessage(f));
    // "Starting…" is posted when the trigger is picked up, before the run is created.
    const created = await waitUntil(() => f.emulator.runs.all()[0]);
    const runId = created.run_id;
    expect(created.agent_config?.model_id).toBe('fast-model');

    await f.post(slashCommandBody({ text: 'list' }));
    const list = await ephemeral(3);
    expect(list.params).toMatchObject({ channel: 'CGENERAL1', user: 'UALICE01' });
    expect(JSON.stringify(list.params.blocks)).toContain('Document the API');

    await f.post(slashCommandBody({ text: `status ${runId}` }));
    expect(JSON.stringify((await ephemeral(4)).params.blocks)).toContain('Document the API');
    expect(f.api.okCallsTo('chat.postEphemeral').every((c) => c.params.user === 'UALICE01')).toBe(
      true,
    );
  });
});

describe('Slack flow: private answers to mentions', () => {
  it('a mistake in a mention is answered only to its author, in the thread', async () => {
    const f = await start();
    const ts = await f.mention('<@UBOT0001> colour=blue paint it');
    const answer = await waitUntil(() => f.api.okCallsTo('chat.postEphemeral')[0]);
    expect(answer.params).toMatchObject({ channel: 'CGENERAL1', user: 'UALICE01', thread_ts: ts });
    expect(f.api.okCallsTo('chat.postMessage')).toEqual([]);
  });
});

describe('Slack flow: rate limits', () => {
  it('a 429 from Slack is retried after Retry-After, not before', async () => {
    const f = await start();
    // Retry-After 2 s is longer than the outbox's own first backoff (1 s), so it decides.
    f.api.failNext('chat.postMessage', { status: 429, retryAfter: 2 });
    await f.post(slashCommandBody({ text: 'Tidy the changelog' }));
    const status = await waitUntil(() => statusMessage(f), { timeoutMs: 10_000 });
    const attempts = f.api.callsTo('chat.postMessage');
    expect(attempts[0]?.status).toBe(429);
    const delivered = attempts.find((c) => c.status === 200);
    expect((delivered?.at ?? 0) - (attempts[0]?.at ?? 0)).toBeGreaterThanOrEqual(2_000);
    expect(status.text).toContain('Tidy the changelog');
  });
});
