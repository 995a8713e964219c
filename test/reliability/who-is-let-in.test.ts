/**
 * Who is let in: authors GitHub does not count as writers, bots, the
 * app itself, Slack users and channels outside the allowlists, and a cancel by someone who may
 * not are each refused, and nothing of theirs reaches the Agent Run Service. A control in
 * each group shows the same request from someone allowed does get through.
 */
import { describe, expect, it } from 'vitest';
import { fixtureText } from '../github/fixtures.js';
import type { Payload } from '../github/fixtures.js';
import { waitUntil } from '../helpers/wait-until.js';
import {
  appMentionEvent,
  blockActionsBody,
  eventCallback,
  slashCommandBody,
} from '../helpers/slack.js';
import { relayPerTest } from '../helpers/relay.js';
import type { Relay } from '../helpers/relay.js';

const start = relayPerTest();

/** Requests to the service other than reads (create, follow-up, cancel, dispatch). */
function serviceWrites(r: Relay): Record<string, number> {
  return Object.fromEntries(
    Object.entries(r.emulator.requests.snapshot()).filter(([route]) => route.startsWith('POST ')),
  );
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

let n = 0;
function comment(change: (p: Payload) => void): string {
  const payload = JSON.parse(fixtureText('issue-comment-created')) as Payload;
  n += 1;
  payload.comment.id = 700_000 + n;
  change(payload);
  return JSON.stringify(payload);
}
const delivery = () => ({ event: 'issue_comment', deliveryId: `authz-${++n}` });

describe('GitHub', () => {
  it.each(['NONE', 'CONTRIBUTOR', 'FIRST_TIME_CONTRIBUTOR', 'FIRST_TIMER', 'MANNEQUIN'])(
    'an author with association %s is refused once, politely; nothing reaches the service',
    async (association) => {
      const r = await start();
      const body = (text: string) =>
        comment((p) => {
          p.comment.author_association = association;
          p.comment.user.login = 'mallory';
          p.comment.body = text;
        });
      for (const text of [
        '@agent-relay delete the repo',
        '@agent-relay cancel',
        '@agent-relay try again',
      ]) {
        const res = await r.postGitHub(body(text), delivery());
        expect(res.status).toBe(200);
        expect(await res.json()).toMatchObject({ ok: true, result: 'refused' });
      }
      await waitUntil(() => r.github.comments.size === 1, { timeoutMs: 5_000 });
      await settle();
      const [refusal] = [...r.github.comments.values()];
      expect(refusal?.body).toMatch(/^ℹ️ @mallory /);
      expect(refusal?.body).toContain('members of the organization');
      expect(r.github.comments.size).toBe(1); // told once, not once per attempt
      expect(serviceWrites(r)).toEqual({});
      expect(r.rows().inbox).toBe(0);
    },
  );

  it.each([
    [
      'a bot account',
      (p: Payload) => Object.assign(p.comment.user, { login: 'dependabot[bot]', type: 'Bot' }),
    ],
    [
      'the app itself',
      (p: Payload) => Object.assign(p.comment.user, { login: 'agent-relay[bot]', type: 'Bot' }),
    ],
    [
      'an edited comment',
      (p: Payload) => Object.assign(p, { action: 'edited', changes: { body: { from: 'x' } } }),
    ],
    [
      'a mention inside a code block',
      (p: Payload) => Object.assign(p.comment, { body: 'see:\n```\n@agent-relay fix it\n```' }),
    ],
    [
      'a mention inside a quote',
      (p: Payload) => Object.assign(p.comment, { body: '> @agent-relay fix it\n\nagreed' }),
    ],
  ])('%s never triggers (even as OWNER)', async (_what, change) => {
    const r = await start();
    const body = comment((p) => {
      p.comment.author_association = 'OWNER';
      change(p);
    });
    const res = await r.postGitHub(body, delivery());
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ result: 'ignored' });
    await settle();
    expect(serviceWrites(r)).toEqual({});
    expect(r.rows()).toMatchObject({ inbox: 0, outbox: 0 });
    expect(r.github.comments.size).toBe(0);
  });

  it('control: a MEMBER starts a run', async () => {
    const r = await start();
    const res = await r.postGitHub(
      comment(() => undefined),
      delivery(),
    );
    expect(res.status).toBe(202);
    await waitUntil(() => r.emulator.runs.count() === 1, { timeoutMs: 5_000 });
  });
});

let ts = 0;
const nextTs = () => `1700001${String(++ts).padStart(3, '0')}.000100`;
const mention = (fields: {
  user?: string;
  channel?: string;
  text?: string;
  thread_ts?: string;
  bot_id?: string;
}) =>
  eventCallback(
    appMentionEvent({ ts: nextTs(), text: '<@UBOT0001> fix the flaky test', ...fields }),
  );

describe('Slack allowlists', () => {
  const lists = { env: { SLACK_ALLOWED_USERS: 'UALICE01', SLACK_ALLOWED_CHANNELS: 'CGENERAL1' } };

  it.each([
    ['a user outside SLACK_ALLOWED_USERS', { user: 'UMALLORY1' }, /not on the list of people/],
    [
      'a channel outside SLACK_ALLOWED_CHANNELS',
      { channel: 'CRANDOM01' },
      /not enabled in this conversation/,
    ],
  ])('%s is refused (told privately); nothing is stored or sent', async (_what, fields, words) => {
    const r = await start(lists);
    expect((await r.postSlack(mention(fields))).status).toBe(200);
    const told = await waitUntil(() => r.slack.okCallsTo('chat.postEphemeral')[0], {
      timeoutMs: 5_000,
    });
    expect(String(told.params.text)).toMatch(words);
    await settle();
    expect(r.rows()).toMatchObject({ inbox: 0, outbox: 0, runs: 0 });
    expect(serviceWrites(r)).toEqual({});
    expect(r.slack.callsTo('chat.postMessage')).toEqual([]);
  });

  it('a slash command from a user outside the list is refused in the command reply', async () => {
    const r = await start(lists);
    const res = await r.postSlack(slashCommandBody({ text: 'fix it', user: 'UMALLORY1' }));
    expect(res.status).toBe(200);
    expect(JSON.stringify(await res.json())).toMatch(/not on the list of people/);
    await settle();
    expect(r.rows().inbox).toBe(0);
    expect(serviceWrites(r)).toEqual({});
  });

  it('messages of bots (and of the bot itself) are ignored', async () => {
    const r = await start(lists);
    expect((await r.postSlack(mention({ bot_id: 'BOTHER01' }))).status).toBe(200);
    expect((await r.postSlack(mention({ user: 'UBOT0001', bot_id: 'BBOT0001' }))).status).toBe(200);
    await settle();
    expect(r.rows().inbox).toBe(0);
    expect(serviceWrites(r)).toEqual({});
  });

  it('control: an allowed user in an allowed channel starts a run', async () => {
    const r = await start(lists);
    expect((await r.postSlack(mention({}))).status).toBe(200);
    await waitUntil(() => r.emulator.runs.count() === 1, { timeoutMs: 5_000 });
  });
});

describe('cancel by someone who may not', () => {
  it('Slack: the Cancel button and "cancel" from another user are refused; the requester may', async () => {
    const r = await start();
    const threadTs = nextTs();
    const started = eventCallback(
      appMentionEvent({ ts: threadTs, text: '<@UBOT0001> a long job [slow]' }),
    );
    expect((await r.postSlack(started)).status).toBe(200);
    const run = await waitUntil(() => r.emulator.runs.all()[0], { timeoutMs: 5_000 });
    const status = await waitUntil(
      () => r.slack.messages.find((m) => m.thread_ts === threadTs && m.bot_id === 'BBOT0001'),
      { timeoutMs: 5_000 },
    );
    const button = blockActionsBody({
      actionId: 'agent_relay_cancel',
      value: run.run_id,
      user: 'UBOB0001',
      messageTs: status.ts,
      threadTs,
    });
    expect((await r.postSlack(button)).status).toBe(200);
    const typed = eventCallback(
      appMentionEvent({
        ts: nextTs(),
        thread_ts: threadTs,
        user: 'UBOB0001',
        text: `<@UBOT0001> cancel ${run.run_id}`,
      }),
    );
    expect((await r.postSlack(typed)).status).toBe(200);
    await waitUntil(
      () =>
        r.slack.calls.filter((c) => /Only the person who started/.test(String(c.params.text)))
          .length === 2,
      { timeoutMs: 5_000 },
    );
    expect(r.emulator.requests.get('POST /agent/runs/:id/cancel')).toBe(0);
    expect(r.emulator.runs.get(run.run_id)?.state).not.toBe('CANCELLED');

    const own = eventCallback(
      appMentionEvent({ ts: nextTs(), thread_ts: threadTs, text: '<@UBOT0001> cancel' }),
    );
    expect((await r.postSlack(own)).status).toBe(200);
    await waitUntil(() => r.emulator.runs.get(run.run_id)?.state === 'CANCELLED', {
      timeoutMs: 8_000,
    });
    expect(r.emulator.requests.get('POST /agent/runs/:id/cancel')).toBeGreaterThanOrEqual(1);
  });

  it('GitHub: "cancel" from an author who may not trigger runs never reaches the service', async () => {
    const r = await start();
    const res = await r.postGitHub(
      comment((p) => {
        p.comment.author_association = 'NONE';
        p.comment.body = '@agent-relay cancel';
      }),
      delivery(),
    );
    expect(await res.json()).toMatchObject({ result: 'refused' });
    await settle();
    expect(r.emulator.requests.get('POST /agent/runs/:id/cancel')).toBe(0);
    expect(serviceWrites(r)).toEqual({});
  });
});
