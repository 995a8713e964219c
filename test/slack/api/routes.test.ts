import { App } from '@slack/bolt';
import type { Receiver } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { createSlackRoutes } from '../../../src/slack/api/routes.js';

/** A Bolt app that is handed payloads directly (the receiver's part is tested elsewhere). */
function boltApp(): App {
  const receiver: Receiver = {
    init: () => undefined,
    start: () => Promise.resolve(),
    stop: () => Promise.resolve(),
  };
  return new App({
    receiver,
    authorize: () => Promise.resolve({ botToken: 'xoxb-test', botUserId: 'UBOT0001' }),
  });
}

const ack = () => Promise.resolve();

function event(type: string, extra: Record<string, unknown> = {}) {
  return {
    type: 'event_callback',
    team_id: 'T0001',
    api_app_id: 'A0001',
    event_id: `Ev-${type}`,
    event_time: 1,
    event: { type, user: 'U0001', channel: 'C0001', ts: '1.000001', text: 'hi', ...extra },
  };
}

function click(actionId: string) {
  return {
    type: 'block_actions',
    team: { id: 'T0001' },
    user: { id: 'U0001' },
    api_app_id: 'A0001',
    token: 'dummy',
    trigger_id: 'trig-1',
    container: { type: 'message' },
    channel: { id: 'C0001' },
    actions: [{ type: 'button', action_id: actionId, block_id: 'b', action_ts: '2.0' }],
  };
}

describe('Slack routes', () => {
  it('hands each payload to the handler registered for its key, and only to it', async () => {
    const app = boltApp();
    const routes = createSlackRoutes(app);
    const seen: string[] = [];
    routes.event('app_mention', async ({ event: e }) => {
      seen.push(`mention ${e.text}`);
    });
    routes.event('message', async () => {
      seen.push('message');
    });
    routes.action('cancel', async ({ ack: done }) => {
      seen.push('cancel');
      await done();
    });
    routes.action('status', async ({ ack: done }) => {
      seen.push('status');
      await done();
    });
    routes.command('/agent', async ({ command, ack: done }) => {
      seen.push(`command ${command.text}`);
      await done();
    });

    await app.processEvent({ body: event('app_mention'), ack });
    await app.processEvent({ body: click('status'), ack });
    await app.processEvent({ body: event('reaction_added'), ack }); // nobody's: ignored
    await app.processEvent({ body: click('unknown'), ack }); // nobody's: ignored
    await app.processEvent({
      body: {
        command: '/agent',
        text: 'status',
        team_id: 'T0001',
        channel_id: 'C0001',
        user_id: 'U0001',
        trigger_id: 't',
      },
      ack,
    });
    await app.processEvent({ body: event('message'), ack });

    expect(seen).toEqual(['mention hi', 'status', 'command status', 'message']);
  });

  it('refuses a second handler for the same key', () => {
    const routes = createSlackRoutes(boltApp());
    routes.action('cancel', async () => undefined);
    routes.event('app_mention', async () => undefined);
    expect(() => routes.action('cancel', async () => undefined)).toThrow(/two handlers/);
    expect(() => routes.event('app_mention', async () => undefined)).toThrow(/two handlers/);
    routes.view('cancel', async () => undefined); // another kind: another table
  });

  it('passes a handler failure on to Bolt, as a listener of its own would', async () => {
    const app = boltApp();
    const failures: unknown[] = [];
    app.error(async (err) => {
      failures.push(err);
    });
    const routes = createSlackRoutes(app);
    routes.event('app_mention', async () => {
      throw new Error('sink down');
    });
    await app.processEvent({ body: event('app_mention'), ack });
    expect(failures).toHaveLength(1);
    expect(String(failures[0])).toMatch(/sink down/);
  });
});
