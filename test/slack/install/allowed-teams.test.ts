/**
 * Only the workspaces an operator chose: with OAuth install, a workspace not on
 * SLACK_ALLOWED_TEAMS cannot finish an install (nothing stored, its new token revoked), and
 * its events, commands and clicks are answered 200 and dropped with one warning line (no
 * stack, no retry by Slack). A workspace on the list installs and works; an Enterprise Grid
 * organisation id on the list admits the organisation.
 */
import { describe, expect, it } from 'vitest';
import type { FakeWorkspace } from '../../../src/fakes/slack-web-api.js';
import { blockActionsBody, slashCommandBody } from '../../helpers/slack.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { captureLogs } from '../../helpers/log-capture.js';
import {
  WORKSPACE_ONE as ONE,
  WORKSPACE_ORG as ORG,
  fakeWorkspace,
  mention,
  workspacesPerTest,
  type Workspaces,
} from './workspace-harness.js';

const OUTSIDER = fakeWorkspace('TOUT00009', 'Outsider', 'outsider', 'OUT09');

const open = workspacesPerTest();

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
let seq = 0;
const nextTs = () => `1700002${String(++seq).padStart(3, '0')}.000100`;

const mentionOf = (ws: FakeWorkspace, channel: string, text: string) =>
  mention(ws, channel, text, nextTs());

/** A mention in `channel` of workspace `ws`, and the wait for the one run it starts there. */
async function mentionStartsRun(w: Workspaces, ws: FakeWorkspace, channel: string, text: string) {
  await w.post(mentionOf(ws, channel, text));
  await waitUntil(
    async () => (await w.service.store.runs.listRecent(`slack:${ws.team_id}:`, 5)).length === 1,
    { timeoutMs: 10_000 },
  );
}

describe('SLACK_ALLOWED_TEAMS with OAuth install', () => {
  it('refuses to install a workspace not on the list: a clear page, nothing stored, the token revoked', async () => {
    const w = await open([ONE, OUTSIDER], { SLACK_ALLOWED_TEAMS: 'TONE00001' });
    const refused = await w.install('code-outsider');
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('Install refused');
    expect(await w.service.store.installations.count('slack')).toBe(0);
    expect(w.api.okCallsTo('auth.revoke').map((c) => c.token)).toEqual([OUTSIDER.token]);

    const listed = await w.install('code-one');
    expect(listed.status).toBe(200);
    expect(await listed.text()).toContain('agent-relay is installed in One');
    expect(await w.service.store.installations.count('slack')).toBe(1);
  });

  it('an Enterprise Grid organisation id on the list admits its org-wide install', async () => {
    const w = await open([ORG], { SLACK_ALLOWED_TEAMS: 'EORG00001' });
    expect((await w.install('code-org')).status).toBe(200);
    await mentionStartsRun(w, ORG, 'CORG00001', 'tidy the org docs');
  });

  it('a workspace with no installation, or not on the list, gets 200 and nothing else; one warning, no stack', async () => {
    const logs = captureLogs({ test: 'allowed-teams' });
    const w = await open(
      [ONE, OUTSIDER],
      { SLACK_ALLOWED_TEAMS: 'TONE00001,TLISTED01' },
      { logger: logs.logger },
    );
    await w.install('code-one');
    const listedButNotInstalled = { ...ONE, team_id: 'TLISTED01' };
    const sent = [
      // Slack retries each delivery up to three times when it is not answered 2xx.
      ...[1, 2, 3].map(() => w.post(mentionOf(OUTSIDER, 'COUT00001', 'spend their runs'))),
      ...[1, 2].map(() => w.post(mentionOf(listedButNotInstalled, 'CLIST0001', 'hello'))),
      w.postForm(slashCommandBody({ text: 'run env=prod do it', team: OUTSIDER.team_id })),
      w.postForm(
        blockActionsBody({
          actionId: 'agent_relay_cancel',
          value: 'run_0001',
          messageTs: '1700000001.000100',
          team: OUTSIDER.team_id,
        }),
      ),
    ];
    const statuses = await Promise.all(
      sent.map(async (p) => {
        const res = await p;
        await res.arrayBuffer();
        return res.status;
      }),
    );
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200]);
    await settle();
    expect(await w.service.store.runs.listRecent('slack:TOUT00009:', 5)).toEqual([]);
    expect(w.api.calls.filter((c) => c.params.channel === 'COUT00001')).toEqual([]);

    const lines = logs.lines();
    const dropped = lines.filter((l) => String(l.msg).includes('does not serve'));
    // One line per workspace per minute, whatever the number of requests.
    expect(dropped.map((l) => [l.level, l.teamId])).toEqual([
      [40, 'TOUT00009'],
      [40, 'TLISTED01'],
    ]);
    expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
    expect(logs.text()).not.toMatch(/"stack"/);

    // The listed, installed workspace still works.
    await mentionStartsRun(w, ONE, 'CONE00001', 'fix the build');
  });

  it('SLACK_ALLOW_ANY_WORKSPACE lets any workspace install, and says so at start-up', async () => {
    const logs = captureLogs({ test: 'allowed-teams' });
    const w = await open([OUTSIDER], { SLACK_ALLOW_ANY_WORKSPACE: '1' }, { logger: logs.logger });
    expect((await w.install('code-outsider')).status).toBe(200);
    const warning = logs.lines().find((l) => String(l.msg).includes('SLACK_ALLOW_ANY_WORKSPACE'));
    expect(warning?.level).toBe(40);
  });
});
