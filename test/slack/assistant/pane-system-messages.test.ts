/**
 * In the agent pane too, only a person's own words start a run: a Slackbot message in an
 * assistant thread gets no "is starting your run…" status and starts nothing, while the
 * person's next message does (the control that the pane was listening).
 */
import { describe, expect, it } from 'vitest';
import { waitUntil } from '../../helpers/wait-until.js';
import { WORKSPACE_ONE, workspacesPerTest } from '../install/workspace-harness.js';
import { PANE, THREAD, paneMessage, threadStarted } from './pane.js';

const ONE = WORKSPACE_ONE;
const open = workspacesPerTest();

describe('the agent pane and system messages', () => {
  it('a Slackbot message in an assistant thread starts nothing; the person’s does', async () => {
    const w = await open([ONE]);
    await w.install('code-one');
    expect((await w.post(threadStarted())).status).toBe(200);
    await waitUntil(() => w.api.okCallsTo('assistant.threads.setSuggestedPrompts')[0]);

    const slackbot = paneMessage(
      'You have been removed from #proj-payments by <@UADMIN001>',
      '1700002001.000100',
      'USLACKBOT',
    );
    expect((await w.post(slackbot)).status).toBe(200);
    await w.post(paneMessage('Bump the lodash version', '1700002002.000100'));
    const threadKey = `slack:${ONE.team_id}:${PANE}:${THREAD}`;
    const [run] = await waitUntil(
      async () => {
        const runs = await w.service.store.runs.listByThread(threadKey, 5);
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
