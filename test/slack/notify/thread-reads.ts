/** The Slack notifier's reads of a thread's history: a long thread to read, and a reader. */
import type { FakeSlackApi } from '../../../src/fakes/slack-web-api.js';
import { createSlackNotifier, type SlackNotifier } from '../../../src/slack/notify/notifier.js';
import { createRecordingLogger, type LogLine } from '../../helpers/test-logger.js';

/** A Slack notifier against `api` whose log lines land in `lines`. */
export function notifierLoggingTo(api: FakeSlackApi, lines: LogLine[]): SlackNotifier {
  return createSlackNotifier({
    botToken: 'xoxb-dummy',
    apiUrl: api.url,
    logger: createRecordingLogger(lines),
  });
}

/**
 * Bob's thread in CGENERAL1: the root `m0` and `replies` replies (`text` words reply i;
 * `tick` runs before each, to move a clock); the thread's key.
 */
export function seedThread(
  api: FakeSlackApi,
  replies: number,
  {
    text = (i: number) => `m${i}`,
    tick = () => {},
  }: { text?: (i: number) => string; tick?: () => void } = {},
): string {
  const root = api.seedMessage({ channel: 'CGENERAL1', user: 'UBOB0001', text: 'm0' });
  for (let i = 1; i <= replies; i++) {
    tick();
    api.seedMessage({ channel: 'CGENERAL1', user: 'UBOB0001', text: text(i), thread_ts: root });
  }
  return `slack:T0000001:CGENERAL1:${root}`;
}
