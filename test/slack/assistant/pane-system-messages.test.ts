/**
 * In the agent pane too, only a person's own words start a run: a Slackbot message in an
 * assistant thread gets no "is starting your run…" status and starts nothing, while the
 * person's next message does (the control that the pane was listening).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeWorkspace } from '../../../src/fakes/slack-web-api.js';
import { eventCallback, messageEvent } from '../../helpers/slack.js';
import { assistantThreadStartedEvent } from '../../helpers/slack-surfaces.js';
import { waitUntil } from '../../helpers/wait-until.js';
import type { Workspaces } from '../install/workspace-harness.js';
import { startWorkspaces } from '../install/workspace-harness.js';

const ONE: FakeWorkspace = {
  team_id: 'TONE00001',
  team: 'One',
  code: 'code-one',
  token: 'xoxb-one-dummy',
  bot_user_id: 'UBOTONE01',
  bot_id: 'BBOTONE01',
};
const ALICE = 'UALICE01';
const PANE = 'DPANE0001';
const THREAD = '1700002000.000100';

let w: Workspaces | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const event = (e: Record<string, unknown>) =>
  eventCallback(e, { teamId: ONE.team_id, botUserId: ONE.bot_user_id });

function paneMessage(user: string, text: string, ts: string) {
  return event({
    ...messageEvent({ user, text, ts, channel: PANE, channel_type: 'im', thread_ts: THREAD }),
    team: ONE.team_id,
  });
}

describe('the agent pane and system messages', () => {
  it('a Slackbot message in an assistant thread starts nothing; the person’s does', async () => {
    w = await startWorkspaces([ONE]);
    await w.install('code-one');
    const started = assistantThreadStartedEvent({
      user: ALICE,
      channel: PANE,
      threadTs: THREAD,
      contextChannel: 'CGENERAL1',
      team: ONE.team_id,
    });
    expect((await w.post(event(started))).status).toBe(200);
    await waitUntil(() => w!.api.okCallsTo('assistant.threads.setSuggestedPrompts')[0]);

    const slackbot = paneMessage(
      'USLACKBOT',
      'You have been removed from #proj-payments by <@UADMIN001>',
      '1700002001.000100',
    );
    expect((await w.post(slackbot)).status).toBe(200);
    await w.post(paneMessage(ALICE, 'Bump the lodash version', '1700002002.000100'));
    const threadKey = `slack:${ONE.team_id}:${PANE}:${THREAD}`;
    const [run] = await waitUntil(
      async () => {
        const runs = await w!.service.store.runs.listByThread(threadKey, 5);
        return runs.length > 0 ? runs : undefined;
      },
      { timeoutMs: 10_000 },
    );
    const sent = await w.service.agent.getRun(run!.runId);
    expect(sent.prompt).toContain('Bump the lodash version');
    expect(await w.service.store.runs.listByThread(threadKey, 5)).toHaveLength(1);
    // One status for the person's message; none for Slackbot's.
    expect(w.api.okCallsTo('assistant.threads.setStatus')).toHaveLength(1);
  });
});
