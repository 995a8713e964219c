/**
 * The agent pane end to end through the real Bolt receiver: opening an assistant thread
 * greets and suggests prompts; the channel the person looks at is kept with the thread (and
 * follows them when they switch); their first message starts a run in the pane's thread with
 * the pane's "is starting your run…" status, and asking about "this channel" sends that
 * channel's latest messages along; a later message is a follow-up of the same run. Under
 * Slack's agent messaging (`agent_view`) there is no `assistant_thread_started`: opening the
 * Messages tab (`app_home_opened` with `tab: "messages"`, Slack's "Migrating to the Agent
 * messaging experience", https://docs.slack.dev/ai/migrating-to-agent-messaging/) is what gets
 * the suggested prompts.
 */
import { describe, expect, it } from 'vitest';
import { appHomeOpenedEvent, assistantContextChangedEvent } from '../../helpers/slack-surfaces.js';
import { waitUntil } from '../../helpers/wait-until.js';
import type { Workspaces } from '../install/workspace-harness.js';
import { WORKSPACE_ONE, workspacesPerTest } from '../install/workspace-harness.js';
import { ALICE, PANE, THREAD, paneEvent, paneMessage, threadStarted } from './pane.js';

const ONE = WORKSPACE_ONE;
const startWorkspaces = workspacesPerTest();
let w: Workspaces | undefined;

describe('the agent pane', () => {
  it('under agent_view, opening the Messages tab sets the suggested prompts there (no thread), and publishes no Home tab', async () => {
    w = await startWorkspaces([ONE]);
    await w.install('code-one');
    const api = w.api;
    const opened = appHomeOpenedEvent({ user: ALICE, channel: PANE, tab: 'messages' });
    expect(await w.post(paneEvent(opened))).toMatchObject({ status: 200 });
    const prompts = await waitUntil(
      () => api.okCallsTo('assistant.threads.setSuggestedPrompts')[0],
    );
    expect(prompts.params).toMatchObject({ channel_id: PANE });
    expect(prompts.params.thread_ts).toBeUndefined();
    expect(JSON.stringify(prompts.params.prompts)).toContain('Summarise this channel');
    expect(prompts.token).toBe(ONE.token);
    expect(api.callsTo('views.publish')).toEqual([]);
  });

  it('greets with suggested prompts, keeps the viewed channel, starts a run with it as context, takes follow-ups', async () => {
    w = await startWorkspaces([ONE]);
    await w.install('code-one');
    const api = w.api;
    api.seedMessage({
      channel: 'CINCIDENT',
      text: 'Deploy 42 rolled back after 5xx spike',
      user: 'UBOB00001',
    });
    api.seedMessage({
      channel: 'CINCIDENT',
      text: 'Root cause: stale feature flag',
      user: 'UCAROL001',
    });

    expect((await w.post(threadStarted())).status).toBe(200);
    const prompts = await waitUntil(
      () => api.okCallsTo('assistant.threads.setSuggestedPrompts')[0],
    );
    expect(prompts.params).toMatchObject({ channel_id: PANE, thread_ts: THREAD });
    expect(JSON.stringify(prompts.params.prompts)).toContain('Summarise this channel');
    expect(prompts.token).toBe(ONE.token);
    const greeting = api.messages.find((m) => m.channel === PANE && m.thread_ts === THREAD);
    expect(greeting?.metadata?.event_payload).toMatchObject({ channel_id: 'CGENERAL1' });

    const changed = assistantContextChangedEvent({
      user: ALICE,
      channel: PANE,
      threadTs: THREAD,
      contextChannel: 'CINCIDENT',
      team: ONE.team_id,
    });
    expect((await w.post(paneEvent(changed))).status).toBe(200);
    await waitUntil(() => greeting?.metadata?.event_payload?.channel_id === 'CINCIDENT');

    expect(
      (
        await w.post(
          paneMessage('Summarise what happened in this channel today', '1700002001.000100'),
        )
      ).status,
    ).toBe(200);
    const status = await waitUntil(() => api.okCallsTo('assistant.threads.setStatus')[0]);
    expect(status.params).toMatchObject({
      channel_id: PANE,
      thread_ts: THREAD,
      status: 'is starting your run…',
    });

    const store = w.service.store;
    const threadKey = `slack:TONE00001:${PANE}:${THREAD}`;
    const run = await waitUntil(async () => (await store.runs.listByThread(threadKey, 5))[0], {
      timeoutMs: 10_000,
    });
    const sent = await w.service.agent.getRun(run.runId);
    const title = await waitUntil(() => api.okCallsTo('assistant.threads.setTitle')[0]);
    expect(title.params).toMatchObject({
      channel_id: PANE,
      thread_ts: THREAD,
      title: 'Summarise what happened in this channel today',
    });
    expect(sent.prompt).toContain('Summarise what happened in this channel today');
    expect(sent.prompt).toContain('The person was looking at Slack channel CINCIDENT');
    expect(sent.prompt).toContain('Root cause: stale feature flag');
    await waitUntil(
      () =>
        api.messages.find(
          (m) =>
            m.channel === PANE &&
            m.thread_ts === THREAD &&
            JSON.stringify(m.blocks ?? []).includes('"header"'),
        ),
      { timeoutMs: 10_000 },
    );

    // A reply in the pane's thread steers the same run.
    await w.post(paneMessage('Also list the follow-up actions', '1700002002.000100'));
    await waitUntil(() => api.okCallsTo('assistant.threads.setStatus').length === 2);
    await waitUntil(async () => (await w!.service.agent.getRun(run.runId)).state !== 'QUEUED', {
      timeoutMs: 10_000,
    });
    await waitUntil(
      async () => {
        const inbox = await store.inboxQueue.depth();
        return inbox === 0;
      },
      { timeoutMs: 10_000 },
    );
    expect(await store.runs.listByThread(threadKey, 5)).toHaveLength(1);
    expect(api.okCallsTo('assistant.threads.setTitle')).toHaveLength(1); // only the first titles
  });

  it('a question that is not about "this channel" does not carry the channel', async () => {
    w = await startWorkspaces([ONE]);
    await w.install('code-one');
    await w.post(threadStarted('CINCIDENT'));
    await waitUntil(() => w!.api.okCallsTo('assistant.threads.setSuggestedPrompts')[0]);
    await w.post(paneMessage('Bump the lodash version in the web app', '1700002003.000100'));
    const run = await waitUntil(
      async () =>
        (await w!.service.store.runs.listByThread(`slack:TONE00001:${PANE}:${THREAD}`, 5))[0],
      { timeoutMs: 10_000 },
    );
    const sent = await w.service.agent.getRun(run.runId);
    expect(sent.prompt).not.toContain('CINCIDENT');
  });
});
