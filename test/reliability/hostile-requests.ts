/**
 * The hostile and broken requests of the corpus test: each is a function that sends it and
 * the status the relay must answer. The Slack half is here, with the shared pieces; the
 * GitHub half is hostile-github.ts.
 */
import { signSlack } from '../../src/fakes/sign-requests.js';
import { appMentionEvent, eventCallback } from '../helpers/slack.js';
import { SECRETS } from '../helpers/secrets.js';

export interface HostileCase {
  name: string;
  /** Acceptable answers (the first is the one we expect; others are equally safe). */
  status: number[];
  send(endpoint: string): Promise<Response>;
}

export const FIVE_MIB = 5 * 1024 * 1024;
let seq = 0;
/** A fresh number for ids that must differ between requests. */
export const nextSeq = (): number => ++seq;
const nowSec = () => Math.floor(Date.now() / 1000);

/** A valid, real-shaped app_mention that would start a run if it got through. */
export function validSlackBody(text = '<@UBOT0001> fix the flaky parser test'): string {
  seq += 1;
  return eventCallback(
    appMentionEvent({ text, ts: `1700000${String(seq).padStart(3, '0')}.000100` }),
    { eventId: `EvHOSTILE${String(seq).padStart(4, '0')}` },
  );
}

function slackHeaders(body: string | Buffer, ts = nowSec(), contentType = 'application/json') {
  return { 'content-type': contentType, ...signSlack(body, SECRETS.slackSigningSecret, ts) };
}

export const post = (url: string, headers: Record<string, string>, body: string | Buffer) =>
  fetch(url, { method: 'POST', headers, body });

/** A case's `send`: the body `make` makes when the case runs, posted signed as Slack signs. */
const signedSlack =
  (make: () => string | Buffer) =>
  (url: string): Promise<Response> => {
    const body = make();
    return post(url, slackHeaders(body), body);
  };

/** Raw bytes that are not UTF-8, inside an otherwise valid JSON body. */
export function invalidUtf8(json: string): Buffer {
  const [head, tail] = json.split('fix the', 2);
  return Buffer.concat([
    Buffer.from(`${head ?? ''}fix `),
    Buffer.from([0xff, 0xfe, 0xc3, 0x28]),
    Buffer.from(` the${tail ?? ''}`),
  ]);
}

export const SLACK_CASES: HostileCase[] = [
  {
    name: 'bad signature',
    status: [401],
    send: (url) => {
      const body = validSlackBody();
      return post(
        url,
        { ...slackHeaders(body), 'x-slack-signature': `v0=${'0'.repeat(64)}` },
        body,
      );
    },
  },
  {
    name: 'missing signature headers',
    status: [401],
    send: (url) => post(url, { 'content-type': 'application/json' }, validSlackBody()),
  },
  {
    name: 'missing timestamp header',
    status: [401],
    send: (url) => {
      const body = validSlackBody();
      const { 'x-slack-request-timestamp': _ts, ...headers } = slackHeaders(body);
      return post(url, headers, body);
    },
  },
  {
    name: 'stale timestamp (a replay 10 minutes later)',
    status: [401],
    send: (url) => {
      const body = validSlackBody();
      return post(url, slackHeaders(body, nowSec() - 600), body);
    },
  },
  {
    name: 'future timestamp (10 minutes ahead)',
    status: [401],
    send: (url) => {
      const body = validSlackBody();
      return post(url, slackHeaders(body, nowSec() + 600), body);
    },
  },
  {
    name: 'valid signature over a different body',
    status: [401],
    send: (url) => {
      const signed = validSlackBody('<@UBOT0001> status');
      return post(url, slackHeaders(signed), validSlackBody('<@UBOT0001> delete everything'));
    },
  },
  {
    name: 'malformed JSON (signed)',
    status: [400],
    send: signedSlack(() => '{"type":"event_callback","event":{"type":"app_mention",'),
  },
  {
    name: 'wrong content type (signed event as text/plain)',
    status: [415, 400],
    send: (url) => {
      const body = validSlackBody();
      return post(url, slackHeaders(body, nowSec(), 'text/plain'), body);
    },
  },
  {
    name: 'JSON labelled as a form (signed)',
    status: [400, 415, 200],
    send: (url) => {
      const body = validSlackBody();
      return post(url, slackHeaders(body, nowSec(), 'application/x-www-form-urlencoded'), body);
    },
  },
  {
    name: 'empty body (signed)',
    status: [400],
    send: (url) => post(url, slackHeaders(''), ''),
  },
  {
    name: 'a 5 MiB body',
    status: [413],
    send: signedSlack(() => validSlackBody(`<@UBOT0001> ${'x'.repeat(FIVE_MIB)}`)),
  },
  {
    name: 'invalid UTF-8 (signed over the raw bytes)',
    status: [400, 401],
    send: (url) => {
      const bytes = invalidUtf8(validSlackBody());
      return post(url, slackHeaders(bytes), bytes);
    },
  },
  {
    name: 'unknown event type',
    status: [200],
    send: signedSlack(() =>
      eventCallback({
        type: 'pin_added',
        user: 'UALICE01',
        channel_id: 'CGENERAL1',
        event_ts: '1.2',
      }),
    ),
  },
  {
    name: 'unknown envelope type',
    status: [200, 400],
    send: signedSlack(() =>
      JSON.stringify({ type: 'mystery_callback', team_id: 'T0000001', token: 'x' }),
    ),
  },
  {
    name: 'app_mention missing required fields (user, channel, ts)',
    status: [200],
    send: signedSlack(() =>
      eventCallback({
        type: 'app_mention',
        text: '<@UBOT0001> fix it',
        event_ts: '1.2',
      }),
    ),
  },
];
