/**
 * Slack's agent view through the running relay: the app's pane is a direct message, and
 * `app_context_changed` says which channel the person is looking at; asking about "this
 * channel" there gives the run that channel as context.
 */
import { describe, expect, it } from 'vitest';
import { eventCallback, messageEvent } from '../helpers/slack.js';
import { waitUntil } from '../helpers/wait-until.js';
import { relayPerTest } from '../helpers/relay.js';

const start = relayPerTest();

const contextChanged = (user: string, channel: string) =>
  eventCallback({
    type: 'app_context_changed',
    channel: 'DALICE001',
    user,
    context: {
      entities: [{ type: 'slack#/types/channel_id', value: channel, team_id: 'T0000001' }],
    },
    event_ts: '1700009000.000100',
  });

describe('the agent view', () => {
  it('"this channel" in the pane: the run gets the channel the person was looking at', async () => {
    const r = await start();
    expect((await r.postSlack(contextChanged('UALICE01', 'CDESIGN01'))).status).toBe(200);
    const ts = '1700009001.000100';
    await r.postSlack(
      eventCallback(
        messageEvent({ channel_type: 'im', text: 'summarise this channel', ts, user: 'UALICE01' }),
      ),
    );
    const run = await waitUntil(() => r.emulator.runs.all()[0], { timeoutMs: 8_000 });
    expect(run.prompt).toContain('CDESIGN01');
  });

  it('without a context event, or from someone else, no channel is added', async () => {
    const r = await start();
    await r.postSlack(contextChanged('UBOB0002', 'CDESIGN01'));
    await r.postSlack(
      eventCallback(
        messageEvent({
          channel_type: 'im',
          text: 'summarise this channel',
          ts: '1700009002.000100',
          user: 'UALICE01',
        }),
      ),
    );
    const run = await waitUntil(() => r.emulator.runs.all()[0], { timeoutMs: 8_000 });
    expect(run.prompt).not.toContain('CDESIGN01');
  });
});
