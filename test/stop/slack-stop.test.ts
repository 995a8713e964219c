/**
 * Stop in Slack, end to end through the running relay (signed events into Bolt, the engine over
 * SQLite, the emulator, the fake Web API): each run's thread is an agent session that follows
 * the run; Stop clicked in the session (agent_session_stopped), the status message's Stop
 * button or `stop` interrupts the run when the agent is working and cancels it otherwise, at
 * any moment: before the run exists, while it runs, while BLOCKED, after it ended.
 */
import { describe, expect, it } from 'vitest';
import { STOP_ACTION_ID } from '../../src/slack/render/render-blocks.js';
import {
  appMentionEvent,
  blockActionsBody,
  eventCallback,
  messageEvent,
} from '../helpers/slack.js';
import { SECRETS } from '../helpers/secrets.js';
import { waitUntil } from '../helpers/wait-until.js';
import { relayPerTest, type Relay } from '../helpers/relay.js';

const start = relayPerTest();
const CHANNEL = 'CGENERAL1';

let seq = 0;
const nextTs = () => `1700007${String(++seq).padStart(3, '0')}.000100`;

async function mention(r: Relay, text: string, user = 'UALICE01'): Promise<string> {
  const ts = nextTs();
  r.slack.seedMessage({ channel: CHANNEL, user, text, ts });
  const res = await r.postSlack(
    eventCallback(appMentionEvent({ ts, user, text: `<@UBOT0001> ${text}` })),
  );
  expect(res.status).toBe(200);
  return ts;
}

async function reply(r: Relay, threadTs: string, text: string, user = 'UALICE01') {
  const ts = nextTs();
  r.slack.seedMessage({ channel: CHANNEL, user, text, ts, thread_ts: threadTs });
  await r.postSlack(eventCallback(messageEvent({ user, text, ts, thread_ts: threadTs })));
}

function clickStop(r: Relay, threadTs: string, user = 'UALICE01') {
  return r.slack.agentSessions.stop({
    eventsUrl: r.slackEvents,
    signingSecret: SECRETS.slackSigningSecret,
    channel: CHANNEL,
    threadTs,
    user,
  });
}

const session = (r: Relay, threadTs: string) => r.slack.agentSessions.get(CHANNEL, threadTs);

const sessionIs = (r: Relay, threadTs: string, status: string) =>
  waitUntil(() => (session(r, threadTs)?.status === status ? session(r, threadTs) : undefined), {
    timeoutMs: 8_000,
    message: `session ${status}`,
  });

const runState = (r: Relay, runId: string) => r.emulator.runs.get(runId)?.state;

const stateIs = (r: Relay, runId: string, state: string) =>
  waitUntil(() => (runState(r, runId) === state ? true : undefined), {
    timeoutMs: 8_000,
    message: `run ${state}`,
  });

/** The public lines of the bot in the thread that say something about a stop. */
const stopLines = (r: Relay, threadTs: string) =>
  r.slack.messages.filter((m) => m.thread_ts === threadTs && /stopped the/.test(m.text));

const onlyRun = (r: Relay) =>
  waitUntil(() => r.emulator.runs.all()[0], { timeoutMs: 8_000, message: 'a run' });

/** A relay with one run, asked for by a mention in the channel, once that run is `state`. */
async function runThat(state: string, text: string) {
  const r = await start();
  const root = await mention(r, text);
  const run = await onlyRun(r);
  await stateIs(r, run.run_id, state);
  return { r, root, run };
}

/** The first time the session left `processing` after the last Stop click. */
function leftProcessingMs(r: Relay, threadTs: string): number | undefined {
  const s = session(r, threadTs);
  const clicked = s?.stops.at(-1);
  if (!s || clicked === undefined) return undefined;
  const after = s.history.find((h) => h.at >= clicked && h.status !== 'processing');
  return after === undefined ? undefined : after.at - clicked;
}

describe('agent sessions follow the run', () => {
  it('processing with the run title and its requester, then active when it succeeded', async () => {
    const { r, root, run } = await runThat('SUCCEEDED', 'tidy the changelog');
    const s = await sessionIs(r, root, 'active');
    expect(s.title).toBe(run.title);
    expect(s.initiator).toBe('UALICE01');
    expect(s.history[0]?.status).toBe('processing');
    // The first setStatus made the session with the title (Slack answered it): no rename.
    expect(r.slack.callsTo('agents.sessions.rename')).toHaveLength(0);
  });

  it('a session Slack made itself (opened in the agent pane) is renamed to the run title', async () => {
    const r = await start();
    r.slack.agentSessions.slackMadeTitle = 'New chat';
    const root = await mention(r, 'tidy the changelog');
    const run = await onlyRun(r);
    await stateIs(r, run.run_id, 'SUCCEEDED');
    const s = await sessionIs(r, root, 'active');
    expect(s.title).toBe(run.title);
    expect(r.slack.okCallsTo('agents.sessions.rename').map((c) => c.params.title)).toEqual([
      run.title,
    ]);
  });

  it('suspended while BLOCKED', async () => {
    const { r, root } = await runThat('BLOCKED', 'migrate the db [block]');
    await sessionIs(r, root, 'suspended');
  });

  it('without sessions (an older install): logged once per workspace, runs go on as before', async () => {
    const r = await start();
    r.slack.agentSessions.supported = false;
    const first = await mention(r, 'first job');
    const second = await mention(r, 'second job');
    await waitUntil(
      () =>
        r.emulator.runs.all().length === 2 &&
        r.emulator.runs.all().every((x) => x.state === 'SUCCEEDED')
          ? true
          : undefined,
      { timeoutMs: 8_000 },
    );
    await waitUntil(
      () =>
        r.slack.messages.filter((m) => m.thread_ts === first || m.thread_ts === second).length >= 2
          ? true
          : undefined,
      { timeoutMs: 8_000 },
    );
    // Each run's status message was posted and edited several times; after the first
    // `not_authorized` (at most one call per run in flight at once) no more calls are made.
    const edits = r.slack.okCallsTo('chat.update').length;
    expect(edits).toBeGreaterThanOrEqual(4);
    expect(r.slack.callsTo('agents.sessions.setStatus').length).toBeLessThanOrEqual(2);
    expect(r.slack.callsTo('agents.sessions.rename')).toHaveLength(0);
    const told = r.logs
      .lines()
      .filter((l) => /agent sessions are not available/.test(String(l.msg)));
    expect(told).toHaveLength(1);
  });
});

describe('Stop in the session, at any moment', () => {
  it('while it runs: interrupted, the session leaves processing within 2 s, one line says so, a reply continues', async () => {
    const { r, root, run } = await runThat('INPROGRESS', 'rewrite the parser [slow]');
    await sessionIs(r, root, 'processing');
    expect((await clickStop(r, root)).status).toBe(200);
    await sessionIs(r, root, 'suspended');
    expect(leftProcessingMs(r, root)).toBeLessThan(2_000);
    expect(r.emulator.requests.get('POST /agent/runs/:id/interrupt')).toBe(1);
    expect(r.emulator.requests.get('POST /agent/runs/:id/cancel')).toBe(0);
    await stateIs(r, run.run_id, 'BLOCKED');
    const [line] = await waitUntil(() => {
      const lines = stopLines(r, root);
      return lines.length > 0 ? lines : undefined;
    });
    expect(line?.text).toContain('<@UALICE01>');
    expect(line?.text).toMatch(
      /<@UALICE01> stopped the agent\. Reply in this thread to continue\./,
    );
    expect(stopLines(r, root)).toHaveLength(1);

    await reply(r, root, 'go on, but keep the old API');
    await stateIs(r, run.run_id, 'SUCCEEDED');
    await sessionIs(r, root, 'active');
    expect(r.emulator.runs.all()).toHaveLength(1);
  });

  it('before the run exists: the run is cancelled as soon as it is made', async () => {
    const r = await start();
    // The service is briefly unavailable: the first create fails and is tried again later.
    r.emulator.faults.failNext(1, 503, { route: 'POST /agent/runs' });
    const root = await mention(r, 'a job stopped at once [slow]');
    await waitUntil(() => (r.emulator.requests.get('POST /agent/runs') === 1 ? true : undefined));
    expect(r.emulator.runs.all()).toHaveLength(0);
    expect((await clickStop(r, root)).status).toBe(200);
    const run = await onlyRun(r);
    await stateIs(r, run.run_id, 'CANCELLED');
    await sessionIs(r, root, 'closed');
    const [line] = await waitUntil(() => {
      const lines = stopLines(r, root);
      return lines.length > 0 ? lines : undefined;
    });
    expect(line?.text).toMatch(/cancelled/);
  });

  it('while BLOCKED: nothing to interrupt, so the run is cancelled', async () => {
    const { r, root, run } = await runThat('BLOCKED', 'migrate the db [block]');
    await sessionIs(r, root, 'suspended');
    await clickStop(r, root);
    await stateIs(r, run.run_id, 'CANCELLED');
    await sessionIs(r, root, 'closed');
    expect(r.emulator.requests.get('POST /agent/runs/:id/cancel')).toBe(1);
  });

  it('after it ended: nothing is stopped, the person is told privately, the session shows it ended', async () => {
    const { r, root, run } = await runThat('SUCCEEDED', 'a quick one');
    await sessionIs(r, root, 'active');
    const before = r.slack.agentSessions.get(CHANNEL, root)?.history.length ?? 0;
    await clickStop(r, root);
    const told = await waitUntil(() =>
      r.slack.ephemerals.find((m) => m.onlyFor === 'UALICE01' && /already ended/.test(m.text)),
    );
    expect(told.thread_ts).toBe(root);
    await waitUntil(() => ((session(r, root)?.history.length ?? 0) > before ? true : undefined));
    expect(session(r, root)?.status).toBe('active');
    expect(runState(r, run.run_id)).toBe('SUCCEEDED');
    expect(stopLines(r, root)).toHaveLength(0);
  });

  it('from someone who may not stop it: the run goes on, the session is put back, they are told privately', async () => {
    const { r, root, run } = await runThat('INPROGRESS', 'a long job [slow]');
    await sessionIs(r, root, 'processing');
    const before = session(r, root)?.history.length ?? 0;
    await clickStop(r, root, 'UBOB0002');
    const told = await waitUntil(() =>
      r.slack.ephemerals.find((m) => m.onlyFor === 'UBOB0002' && /can stop it/.test(m.text)),
    );
    expect(told.text).toMatch(/goes on/);
    await waitUntil(() => ((session(r, root)?.history.length ?? 0) > before ? true : undefined));
    expect(session(r, root)?.status).toBe('processing');
    expect(runState(r, run.run_id)).toBe('INPROGRESS');
    expect(r.emulator.requests.get('POST /agent/runs/:id/interrupt')).toBe(0);
    expect(stopLines(r, root)).toHaveLength(0);
  });
});

describe('Stop and Cancel on the status message, `stop` in words', () => {
  it('the Stop button interrupts; the run stays open (not cancelled)', async () => {
    const { r, root, run } = await runThat('INPROGRESS', 'a long job [slow]');
    const card = await waitUntil(() =>
      r.slack.messages.find(
        (m) => m.thread_ts === root && JSON.stringify(m.blocks ?? []).includes(STOP_ACTION_ID),
      ),
    );
    const res = await r.postSlack(
      blockActionsBody({ actionId: STOP_ACTION_ID, value: run.run_id, messageTs: card.ts }),
    );
    expect(res.status).toBe(200);
    await stateIs(r, run.run_id, 'BLOCKED');
    expect(r.emulator.requests.get('POST /agent/runs/:id/cancel')).toBe(0);
    await sessionIs(r, root, 'suspended');
  });

  it('`stop` in the thread interrupts the thread run', async () => {
    const { r, root, run } = await runThat('INPROGRESS', 'a long job [slow]');
    const ts = nextTs();
    r.slack.seedMessage({ channel: CHANNEL, user: 'UALICE01', text: 'stop', ts, thread_ts: root });
    await r.postSlack(
      eventCallback(appMentionEvent({ ts, thread_ts: root, text: '<@UBOT0001> stop' })),
    );
    await stateIs(r, run.run_id, 'BLOCKED');
    expect(r.emulator.requests.get('POST /agent/runs/:id/interrupt')).toBe(1);
  });
});
