/**
 * The framework floor: a bare Bolt app (HTTP receiver, signature check, a no-op app_mention
 * listener) and a bare @octokit/webhooks middleware (signature check, a no-op issue_comment
 * handler) on one server, as agent-relay serves both. Whatever latency this adds is the cost
 * of the frameworks themselves; the ingest benchmark reports agent-relay against it.
 */
import { App, HTTPReceiver, LogLevel } from '@slack/bolt';
import { Webhooks, createNodeMiddleware } from '@octokit/webhooks';

const port = Number(process.env.FLOOR_PORT ?? '0');
const webhooks = new Webhooks({ secret: process.env.FLOOR_GITHUB_SECRET ?? '' });
webhooks.on('issue_comment', async () => {});
const github = createNodeMiddleware(webhooks, {
  path: '/github/webhooks',
  log: { debug() {}, info() {}, warn() {}, error() {} },
});

const receiver = new HTTPReceiver({
  signingSecret: process.env.FLOOR_SLACK_SECRET ?? '',
  logLevel: LogLevel.ERROR,
  customRoutes: [
    {
      path: '/github/webhooks',
      method: ['POST'],
      handler: (req, res) => void github(req, res),
    },
    {
      path: '/readyz',
      method: ['GET'],
      handler: (_req, res) => res.writeHead(200).end('ok'),
    },
  ],
});
const app = new App({
  receiver,
  logLevel: LogLevel.ERROR,
  authorize: async () => ({ botToken: 'xoxb-floor', botUserId: 'UBOT0001', botId: 'BBOT0001' }),
});
app.event('app_mention', async () => {});

await receiver.start({ port, host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void receiver.stop().finally(() => process.exit(0));
});
