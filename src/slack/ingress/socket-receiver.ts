/**
 * Socket Mode that stores before it acknowledges, like HTTP mode: Bolt's SocketModeReceiver
 * connects (apps.connections.open, reconnects, pings), but its envelope handler, which
 * acknowledges events before any listener runs, is replaced by one that runs the listeners
 * first (they write the trigger to the inbox) and only then sends the acknowledgement,
 * with the listener's response payload (a slash command's private answer). When the
 * listeners fail, nothing is acknowledged and Slack delivers the envelope again.
 */
import type { App, Receiver } from '@slack/bolt';
import { SocketModeReceiver } from '@slack/bolt';
import type { Logger } from '../../core/ports/index.js';
import { toBoltLogger } from '../api/slack-logger.js';
import { normaliseApiUrl } from '../api/web-client.js';

export interface SocketReceiverOptions {
  appToken: string;
  apiUrl?: string | undefined;
  logger: Logger;
}

interface Envelope {
  body: Record<string, unknown>;
  ack(response?: unknown): Promise<void>;
  retry_num?: number;
  retry_reason?: string;
}

export function createSlackSocketReceiver(options: SocketReceiverOptions): Receiver {
  const log = options.logger.child({ component: 'slack-socket-mode' });
  const inner = new SocketModeReceiver({
    appToken: options.appToken,
    logger: toBoltLogger(options.logger, 'slack-socket-mode'),
    installerOptions: { clientOptions: { slackApiUrl: normaliseApiUrl(options.apiUrl) } },
  });
  let app: App | undefined;
  inner.client.removeAllListeners('slack_event');
  inner.client.on('slack_event', async (envelope: Envelope) => {
    if (app === undefined) return; // not acknowledged: Slack sends it again
    let response: unknown;
    try {
      await app.processEvent({
        body: envelope.body,
        ack: async (body?: unknown) => {
          response = body;
        },
        ...(envelope.retry_num === undefined ? {} : { retryNum: envelope.retry_num }),
        ...(envelope.retry_reason === undefined ? {} : { retryReason: envelope.retry_reason }),
        customProperties: {},
      });
    } catch (err) {
      log.error({ err }, 'Slack envelope failed; not acknowledged, so Slack sends it again');
      return;
    }
    await envelope
      .ack(response)
      .catch((err: unknown) => log.warn({ err }, 'Slack envelope acknowledgement not sent'));
  });
  return {
    init(a: App) {
      app = a;
      inner.init(a);
    },
    start: () => inner.start(),
    stop: () => inner.stop(),
  };
}
