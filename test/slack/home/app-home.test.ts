/**
 * App Home end to end: the real Bolt receiver takes `app_home_opened` and the buttons of the
 * published view; the tab lists the viewer's runs (live first, with a Cancel button and a link
 * to each thread), others' runs only from channels the viewer is in (collapsed), and the
 * viewer's own defaults, which the modal edits and which then apply between inline options
 * and channel defaults.
 */
import { describe, expect, it } from 'vitest';
import { appMentionEvent, eventCallback } from '../../helpers/slack.js';
import {
  appHomeOpenedEvent,
  viewBlockActionsBody,
  viewSubmissionBody,
} from '../../helpers/slack-surfaces.js';
import { waitUntil } from '../../helpers/wait-until.js';
import type { Workspaces } from '../install/workspace-harness.js';
import { WORKSPACE_ONE, workspacesPerTest } from '../install/workspace-harness.js';

const ONE = WORKSPACE_ONE;
const ALICE = 'UALICE01';
const BOB = 'UBOB00001';

const startWorkspaces = workspacesPerTest();
let w: Workspaces | undefined;

let ts = 0;
function mention(user: string, channel: string, text: string) {
  const at = `1700001${String(++ts).padStart(3, '0')}.000100`;
  const event = {
    ...appMentionEvent({ user, text: `<@${ONE.bot_user_id}> ${text}`, ts: at, channel }),
    team: ONE.team_id,
  };
  return { at, body: eventCallback(event, { teamId: ONE.team_id, botUserId: ONE.bot_user_id }) };
}

type Block = {
  type: string;
  text?: { text?: string };
  accessory?: { action_id?: string; value?: string };
  elements?: { text?: string }[];
};
function homeOf(ws: Workspaces, user: string): Block[] {
  const view = ws.api.homeViews.get(user) as { blocks?: Block[] } | undefined;
  return view?.blocks ?? [];
}
const textOf = (blocks: Block[]) =>
  blocks
    .map((b) => [b.text?.text ?? '', ...(b.elements ?? []).map((e) => e.text ?? '')].join(' '))
    .join('\n');

async function started(ws: Workspaces, user: string, channel: string, text: string) {
  const m = mention(user, channel, text);
  expect((await ws.post(m.body)).status).toBe(200);
  await waitUntil(async () =>
    (await ws.service.store.runs.listRecent('slack:TONE00001:', 50)).some((r) =>
      r.threadKey.endsWith(m.at),
    ),
  );
  return m.at;
}

describe('App Home', () => {
  it("lists the viewer's runs live first with Cancel and thread links; others' only from the viewer's channels, collapsed", async () => {
    w = await startWorkspaces([ONE], {}, { homeRefreshMs: 50, slowRunMs: 60_000 });
    await w.install('code-one');
    w.api.join('CTEAM0001', ALICE);
    w.api.join('CTEAM0001', BOB);
    w.api.join('CPRIV0001', BOB);
    const done = await started(w, ALICE, 'CONE00001', 'tidy the changelog');
    const live = await started(w, ALICE, 'CONE00001', '[slow] rewrite the parser');
    await started(w, BOB, 'CTEAM0001', 'team work in a shared channel');
    await started(w, BOB, 'CPRIV0001', 'secret plans in a private channel');
    const store = w.service.store;
    await waitUntil(
      async () => {
        const runs = await store.runs.listRecent('slack:TONE00001:CONE00001:', 10);
        return runs.find((r) => r.title.includes('changelog'))?.state === 'SUCCEEDED';
      },
      { timeoutMs: 10_000 },
    );

    expect(
      (await w.post(eventCallback(appHomeOpenedEvent({ user: ALICE }), { teamId: ONE.team_id })))
        .status,
    ).toBe(200);
    await waitUntil(() => homeOf(w!, ALICE).length > 0);
    const home = homeOf(w, ALICE);
    const text = textOf(home);
    // Live first, then recent; each links to its thread.
    expect(text.indexOf('rewrite the parser')).toBeLessThan(text.indexOf('tidy the changelog'));
    expect(text).toContain(
      `https://app.slack.com/client/TONE00001/CONE00001/thread/CONE00001-${live}`,
    );
    expect(text).toContain(
      `https://app.slack.com/client/TONE00001/CONE00001/thread/CONE00001-${done}`,
    );
    expect(text).toMatch(/Succeeded · \d+(\.\d+)?\s?m?s/);
    // The viewer's runs carry the service's session link.
    expect(text).toMatch(/<https?:\/\/[^|>]+\|Session>/);
    const cancel = home.filter((b) => b.accessory?.action_id === 'agent_relay_home_cancel');
    expect(cancel).toHaveLength(1); // only the live run
    // Others' runs: collapsed, counted from the viewer's channels only.
    expect(text).toContain('*In your channels*: 1 recent run by others');
    expect(text).not.toContain('team work');
    expect(text).not.toContain('secret plans');

    await w.postForm(
      viewBlockActionsBody({
        team: ONE.team_id,
        user: ALICE,
        actionId: 'agent_relay_home_toggle_channels',
        value: 'show',
      }),
    );
    await waitUntil(() => textOf(homeOf(w!, ALICE)).includes('team work'));
    const shown = textOf(homeOf(w, ALICE));
    expect(shown).toContain('team work in a shared channel');
    expect(shown).toContain(`by <@${BOB}>`);
    expect(shown).not.toContain('secret plans');

    // Cancel from the tab: the run is cancelled in its thread, and the tab refreshes itself.
    const runId = cancel[0]?.accessory?.value ?? '';
    expect(
      (
        await w.postForm(
          viewBlockActionsBody({
            team: ONE.team_id,
            user: ALICE,
            actionId: 'agent_relay_home_cancel',
            value: runId,
          }),
        )
      ).status,
    ).toBe(200);
    await waitUntil(async () => (await store.runs.get(runId))?.state === 'CANCELLED', {
      timeoutMs: 10_000,
    });
    await waitUntil(() => textOf(homeOf(w!, ALICE)).includes('Cancelled'), { timeoutMs: 10_000 });
    expect(homeOf(w, ALICE).some((b) => b.accessory?.action_id === 'agent_relay_home_cancel')).toBe(
      false,
    );
  });

  it('edits personal defaults in a modal; they beat channel defaults and lose to inline options', async () => {
    w = await startWorkspaces([ONE], { SLACK_ADMIN_USERS: ALICE });
    await w.install('code-one');
    await w.post(mention(ALICE, 'CONE00001', 'config model=gpt-5-4-high env=env-data').body);
    await waitUntil(
      async () => (await w!.service.store.settings.list('slack:TONE00001:CONE00001')).length === 2,
    );

    await w.post(eventCallback(appHomeOpenedEvent({ user: ALICE }), { teamId: ONE.team_id }));
    await waitUntil(() => homeOf(w!, ALICE).length > 0);
    const edit = await w.postForm(
      viewBlockActionsBody({
        team: ONE.team_id,
        user: ALICE,
        actionId: 'agent_relay_home_edit_defaults',
      }),
    );
    expect(edit.status).toBe(200);
    const opened = await waitUntil(() => w!.api.okCallsTo('views.open')[0]);
    expect((opened.params.view as { callback_id?: string }).callback_id).toBe(
      'agent_relay_personal_defaults',
    );
    // The service's environments and models are offered as choices; the skill stays typed.
    const elements = Object.fromEntries(
      (
        opened.params.view as { blocks: { block_id: string; element: Record<string, unknown> }[] }
      ).blocks.map((b) => [b.block_id, b.element]),
    );
    expect(elements.model?.type).toBe('static_select');
    expect(JSON.stringify(elements.model?.options)).toContain('"value":"gemini-3-pro"');
    expect(elements.env?.type).toBe('static_select');
    expect(JSON.stringify(elements.env?.options)).toContain('Data Pipelines (env-data)');
    expect(elements.skill?.type).toBe('plain_text_input');

    // A typed name (a form opened while the catalogue was down) is checked on save.
    const unknown = await w.postForm(
      viewSubmissionBody({
        team: ONE.team_id,
        user: ALICE,
        callbackId: 'agent_relay_personal_defaults',
        values: { model: null, env: 'nowhere', skill: null },
      }),
    );
    const unknownAnswer = (await unknown.json()) as { errors: Record<string, string> };
    expect(Object.keys(unknownAnswer.errors)).toEqual(['env']);
    expect(unknownAnswer.errors.env).toContain('No environment is named `nowhere`');

    const bad = await w.postForm(
      viewSubmissionBody({
        team: ONE.team_id,
        user: ALICE,
        callbackId: 'agent_relay_personal_defaults',
        values: { model: 'two words', env: null, skill: null },
      }),
    );
    expect(await bad.json()).toEqual({
      response_action: 'errors',
      errors: { model: 'model must be one id without spaces, not "two words"' },
    });

    const saved = await w.postForm(
      viewSubmissionBody({
        team: ONE.team_id,
        user: ALICE,
        callbackId: 'agent_relay_personal_defaults',
        values: { skill: 'acme/tools:review' },
        selected: { model: 'gemini-3-pro', env: '-' },
      }),
    );
    expect(saved.status).toBe(200);
    await waitUntil(() => textOf(homeOf(w!, ALICE)).includes('`gemini-3-pro`'));

    const store = w.service.store;
    const plain = await started(w, ALICE, 'CONE00001', 'use my defaults');
    const inline = await started(w, ALICE, 'CONE00001', 'model=sonnet say which wins');
    const bobs = await started(w, BOB, 'CONE00001', 'bob has no personal defaults');
    const applied = async (at: string) =>
      (await store.runs.listRecent('slack:TONE00001:', 20)).find((r) => r.threadKey.endsWith(at))
        ?.applied;
    expect(await applied(plain)).toEqual(
      expect.arrayContaining([
        { key: 'model', value: 'Gemini 3 Pro (gemini-3-pro)', source: 'personal' },
        { key: 'env', value: 'Data Pipelines (env-data)', source: 'default' },
        { key: 'skill', value: 'acme/tools:review', source: 'personal' },
      ]),
    );
    expect(await applied(inline)).toContainEqual({
      key: 'model',
      value: 'Claude Sonnet 4.6 (claude-4-6-sonnet)',
      source: 'inline',
    });
    expect(await applied(bobs)).toContainEqual({
      key: 'model',
      value: 'GPT-5.4 (gpt-5-4-high)',
      source: 'default',
    });
    // The status card says where each came from.
    const card = await waitUntil(() =>
      w!.api.messages.find(
        (m) => m.thread_ts === plain && JSON.stringify(m.blocks ?? []).includes('your default'),
      ),
    );
    expect(JSON.stringify(card.blocks)).toContain('gemini-3-pro');
  });
});
