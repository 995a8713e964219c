/**
 * Slack's own system messages never start runs: real-shaped, signed Events API payloads
 * through the real Bolt receiver. Slackbot's direct messages carry no `bot_id`; workflow and
 * app posts carry `bot_id`/`bot_profile`/`app_id`; joins and the like carry a subtype. A
 * person's own words (also with a file, or sent to the channel from a thread) still do.
 */
import { describe, expect, it } from 'vitest';
import { eventCallback, postSlack } from '../../helpers/slack.js';
import { startIngress } from './harness.js';
import { worldPerTest } from '../../helpers/world-per-test.js';

const start = worldPerTest(startIngress);

const DM = 'D0SLACKBOT';
let tsCounter = 0;
const ts = () => `1700009${String(++tsCounter).padStart(3, '0')}.000100`;

/** A direct message event as Slack sends it (message.im). */
function dm(fields: Record<string, unknown>): Record<string, unknown> {
  const at = ts();
  return {
    type: 'message',
    channel: DM,
    channel_type: 'im',
    ts: at,
    event_ts: at,
    team: 'T0000001',
    ...fields,
  };
}

describe('messages that are not a person’s own words', () => {
  it('Slackbot, workflows, apps and system subtypes start nothing, in a DM or a channel', async () => {
    const h = await start();
    const events = [
      // Slackbot's notice: a plain message from USLACKBOT, no bot_id, no subtype.
      dm({
        user: 'USLACKBOT',
        text: 'You have been removed from #proj-payments by <@UADMIN001>',
        blocks: [],
      }),
      // A workflow's "send a message" step.
      dm({
        subtype: 'bot_message',
        bot_id: 'BWORKFLOW1',
        username: 'Standup workflow',
        bot_profile: { id: 'BWORKFLOW1', app_id: 'A0WORKFLOW', name: 'Workflow Builder' },
        text: 'Time for standup: what did you do yesterday?',
      }),
      // An app posting as a user (a user token): a user id, but the app's words.
      dm({ user: 'UALICE01', app_id: 'A0OTHERAPP', text: 'Deploy finished for web@1.4.2' }),
      // System subtypes in a DM and in a channel thread.
      dm({ user: 'UALICE01', subtype: 'channel_join', text: '<@UALICE01> has joined' }),
      dm({ user: 'UALICE01', subtype: 'channel_leave', text: '<@UALICE01> has left' }),
      dm({ user: 'USLACKBOT', subtype: 'slackbot_response', text: 'Our wifi password is…' }),
      {
        type: 'message',
        subtype: 'reminder_add',
        user: 'UALICE01',
        text: 'set up a reminder',
        channel: 'CGENERAL1',
        channel_type: 'channel',
        ts: ts(),
        thread_ts: '1700000001.000100',
        team: 'T0000001',
      },
      // Slackbot mentioning the bot in a channel.
      {
        type: 'app_mention',
        user: 'USLACKBOT',
        text: '<@UBOT0001> reminder: fix the build',
        channel: 'CGENERAL1',
        ts: ts(),
        team: 'T0000001',
      },
    ];
    for (const event of events) {
      expect((await postSlack(h.url, eventCallback(event))).status).toBe(200);
    }
    expect(h.sink.offered).toEqual([]);
  });

  it('a person’s DM, with a file, or broadcast from a thread, still starts a run', async () => {
    const h = await start();
    const events = [
      dm({ user: 'UALICE01', text: 'fix the flaky login test', client_msg_id: 'c-1' }),
      dm({ user: 'UALICE01', subtype: 'file_share', text: 'this log shows it', files: [] }),
      {
        type: 'app_mention',
        subtype: 'thread_broadcast',
        user: 'UALICE01',
        text: '<@UBOT0001> and tell the channel',
        channel: 'CGENERAL1',
        ts: ts(),
        thread_ts: '1700000001.000100',
        team: 'T0000001',
      },
    ];
    for (const event of events) {
      expect((await postSlack(h.url, eventCallback(event))).status).toBe(200);
    }
    expect(h.sink.triggers.map((t) => t.text)).toEqual([
      'fix the flaky login test',
      'this log shows it',
      'and tell the channel',
    ]);
  });
});
