import { afterEach, describe, expect, it } from 'vitest';
import type { SlackIngress } from '../../../src/slack/ingress/slack-ingress.js';
import { createSlackIngress } from '../../../src/slack/ingress/slack-ingress.js';
import { appMentionEvent, eventCallback } from '../../helpers/slack.js';
import { waitUntil } from '../../helpers/wait-until.js';
import type { FakeSlackApi } from '../../../src/fakes/slack-web-api.js';
import { startFakeSlackApi } from '../../../src/fakes/slack-web-api.js';
import type { FakeSocketMode } from './fake-socket-mode.js';
import { startFakeSocketMode } from './fake-socket-mode.js';
import { peopleOf, RecordingSink } from './harness.js';
import { createRecordingLogger } from '../../helpers/test-logger.js';
import type { Trigger } from '../../../src/core/trigger.js';

let api: FakeSlackApi | undefined;
let ws: FakeSocketMode | undefined;
let ingress: SlackIngress | undefined;
afterEach(async () => {
  await ingress?.stop();
  await ws?.close();
  await api?.close();
  ingress = ws = api = undefined;
});

/** The fake Web API, the fake Socket Mode server, and an ingress started on them into `sink`. */
async function startSocketIngress(
  sink: RecordingSink,
): Promise<{ api: FakeSlackApi; ws: FakeSocketMode }> {
  const fake = (api = await startFakeSlackApi());
  const socket = (ws = await startFakeSocketMode());
  fake.socketUrl = socket.url;
  ingress = createSlackIngress({
    signingSecret: '',
    botToken: 'xoxb-socket',
    appToken: 'xapp-socket',
    apiUrl: fake.url,
    commandName: '/agent',
    allowedChannels: [],
    allowedUsers: [],
    sink,
    logger: createRecordingLogger(),
    people: peopleOf(fake.url, createRecordingLogger()),
  });
  await ingress.start();
  return { api: fake, ws: socket };
}

describe('Slack ingress in Socket Mode', () => {
  it('connects with the app token and feeds the same listeners', async () => {
    const sink = new RecordingSink();
    const { api, ws } = await startSocketIngress(sink);
    expect(api.okCallsTo('apps.connections.open')[0]?.token).toBe('xapp-socket');

    const body = JSON.parse(
      eventCallback(
        appMentionEvent({ text: '<@UBOT0001> from the socket', ts: '1700000030.000100' }),
        {
          eventId: 'EvSOCK1',
        },
      ),
    ) as Record<string, unknown>;
    ws.send({
      envelope_id: 'env-1',
      type: 'events_api',
      payload: body,
      accepts_response_payload: false,
      retry_attempt: 0,
    });
    ws.send({
      envelope_id: 'env-2',
      type: 'slash_commands',
      payload: {
        team_id: 'T0000001',
        channel_id: 'CGENERAL1',
        user_id: 'UALICE01',
        user_name: 'alice',
        command: '/agent',
        text: 'help',
        trigger_id: '999.888.777',
      },
      accepts_response_payload: true,
    });

    await waitUntil(() => ws.received.length === 2);
    expect(ws.received.map((m) => m.envelope_id).sort()).toEqual(['env-1', 'env-2']);
    expect(sink.triggers.map((t) => [t.kind, t.deliveryId, t.text])).toEqual(
      expect.arrayContaining([
        ['mention', 'EvSOCK1', 'from the socket'],
        ['slash_command', 'cmd:999.888.777', 'help'],
      ]),
    );
  });
  it('acknowledges an event only after its trigger is stored; a failed store is not acknowledged', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let arrived = 0;
    const sink = new (class extends RecordingSink {
      override async accept(trigger: Trigger) {
        arrived += 1;
        await gate;
        return super.accept(trigger);
      }
    })();
    const { ws } = await startSocketIngress(sink);
    const envelope = (id: string, eventId: string, ts: string) => ({
      envelope_id: id,
      type: 'events_api',
      payload: JSON.parse(
        eventCallback(appMentionEvent({ text: '<@UBOT0001> store me first', ts }), { eventId }),
      ) as Record<string, unknown>,
      accepts_response_payload: false,
      retry_attempt: 0,
    });
    ws.send(envelope('env-held', 'EvHELD1', '1700000031.000100'));
    await waitUntil(() => arrived === 1);
    // The store has not answered yet: nothing may be acknowledged.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(ws.received).toEqual([]);
    release();
    await waitUntil(() => ws.received.length === 1);
    expect(ws.received[0]?.envelope_id).toBe('env-held');
    expect(sink.triggers.map((t) => t.deliveryId)).toEqual(['EvHELD1']);

    sink.failing = true;
    ws.send(envelope('env-lost', 'EvLOST1', '1700000032.000100'));
    await waitUntil(() => sink.offered.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(ws.received.map((m) => m.envelope_id)).toEqual(['env-held']);
  });
});
