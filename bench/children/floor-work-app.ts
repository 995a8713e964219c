/**
 * The work floor: a bare app built from the libraries agent-relay uses, doing the same outside
 * work for a Slack mention and nothing else: Bolt's HTTP receiver (signature check), a SQLite
 * insert (better-sqlite3, WAL, a file on disk), `reactions.add` 👀 and `chat.postMessage`
 * "Starting…" through Bolt's Web API client, the run's create on the Agent Run Service
 * (undici), a SQLite write of the run id, and `chat.update` of the message to the run. The
 * `floor` scenario reports agent-relay's CPU per mention against this app's, in the same run.
 */
import Database from 'better-sqlite3';
import { App, HTTPReceiver, LogLevel } from '@slack/bolt';
import { request } from 'undici';

const port = Number(process.env.FLOOR_PORT ?? '0');
const agentUrl = process.env.FLOOR_AGENT_URL ?? '';
const agentKey = process.env.FLOOR_AGENT_KEY ?? '';
const db = new Database(process.env.FLOOR_DATABASE ?? ':memory:');
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(`CREATE TABLE IF NOT EXISTS triggers (
  id INTEGER PRIMARY KEY, event_id TEXT UNIQUE, thread TEXT, body TEXT, received_at INTEGER,
  run_id TEXT)`);
const insert = db.prepare(
  'INSERT OR IGNORE INTO triggers (event_id, thread, body, received_at) VALUES (?, ?, ?, ?)',
);
const recordRun = db.prepare('UPDATE triggers SET run_id = ? WHERE id = ?');

const receiver = new HTTPReceiver({
  signingSecret: process.env.FLOOR_SLACK_SECRET ?? '',
  logLevel: LogLevel.ERROR,
  customRoutes: [
    { path: '/readyz', method: ['GET'], handler: (_req, res) => res.writeHead(200).end('ok') },
  ],
});
const app = new App({
  receiver,
  logLevel: LogLevel.ERROR,
  clientOptions: {
    slackApiUrl: process.env.FLOOR_SLACK_API_URL ?? '',
    retryConfig: { retries: 0 },
  },
  authorize: async () => ({ botToken: 'xoxb-floor', botUserId: 'UBOT0001', botId: 'BBOT0001' }),
});

app.event('app_mention', async ({ event, body, client }) => {
  const thread = `slack:${body.team_id}:${event.channel}:${event.ts}`;
  const { lastInsertRowid, changes } = insert.run(
    body.event_id,
    thread,
    JSON.stringify(body),
    Date.now(),
  );
  if (changes === 0) return;
  await client.reactions.add({ channel: event.channel, timestamp: event.ts, name: 'eyes' });
  const posted = await client.chat.postMessage({
    channel: event.channel,
    thread_ts: event.ts,
    text: 'Starting…',
  });
  const res = await request(`${agentUrl}/agent/runs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${agentKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      prompt: event.text,
      team: true,
      metadata: { relay_thread: thread, relay_platform: 'slack', relay_request: body.event_id },
    }),
  });
  const run = (await res.body.json()) as { run_id: string; state: string };
  recordRun.run(run.run_id, lastInsertRowid);
  await client.chat.update({
    channel: event.channel,
    ts: posted.ts ?? '',
    text: `Run ${run.run_id}: ${run.state}`,
  });
});

await receiver.start({ port, host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void receiver.stop().finally(() => {
    db.close();
    process.exit(0);
  });
});
