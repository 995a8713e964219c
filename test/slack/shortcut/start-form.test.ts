/**
 * "Send to agent" and the start form, end to end through the real Bolt receiver: the message
 * shortcut opens the form prefilled with the message, submitting it starts a run in that
 * message's thread (the thread before it goes along as context); the slash command alone
 * opens the same form and its run starts a new thread; bad options are shown on their field.
 */
import { describe, expect, it } from 'vitest';
import { seedThread, slashCommandBody } from '../../helpers/slack.js';
import { messageActionBody, viewSubmissionBody } from '../../helpers/slack-surfaces.js';
import { waitUntil } from '../../helpers/wait-until.js';
import type { Workspaces } from '../install/workspace-harness.js';
import { WORKSPACE_ONE, workspacesPerTest } from '../install/workspace-harness.js';

const ONE = WORKSPACE_ONE;
const ALICE = 'UALICE01';

const startWorkspaces = workspacesPerTest();
let w: Workspaces | undefined;

type OpenedView = {
  callback_id?: string;
  private_metadata?: string;
  blocks?: {
    block_id?: string;
    element?: { type?: string; initial_value?: string; options?: { value: string }[] };
  }[];
};
const lastOpened = (ws: Workspaces) =>
  ws.api.okCallsTo('views.open').at(-1)?.params.view as OpenedView | undefined;
const initial = (view: OpenedView | undefined, block: string) =>
  view?.blocks?.find((b) => b.block_id === block)?.element?.initial_value;
const element = (view: OpenedView | undefined, block: string) =>
  view?.blocks?.find((b) => b.block_id === block)?.element;

function slash(text: string): string {
  const body = new URLSearchParams(slashCommandBody({ text, user: ALICE, channel: 'CONE00001' }));
  body.set('team_id', ONE.team_id);
  return body.toString();
}

/** Alice submits the start form with `values` (and the menus' `selected`) in workspace One. */
function submitForm(
  w: Workspaces,
  privateMetadata: string,
  values: Record<string, string | null>,
  selected?: Record<string, string | null>,
): Promise<Response> {
  return w.postForm(
    viewSubmissionBody({
      team: ONE.team_id,
      user: ALICE,
      callbackId: 'agent_relay_start_form',
      privateMetadata,
      values,
      ...(selected === undefined ? {} : { selected }),
    }),
  );
}

describe('Send to agent', () => {
  it('opens the form with the message; submitting starts a run in its thread with the thread as context', async () => {
    w = await startWorkspaces([ONE]);
    await w.install('code-one');
    w.api.join('CONE00001', ALICE);
    const [root, reply = ''] = seedThread(
      w.api,
      'CONE00001',
      ['UBOB00001', 'The nightly build fails on ARM since Tuesday'],
      ['UCAROL001', 'Looks like the cache key changed'],
    );

    const res = await w.postForm(
      messageActionBody({
        team: ONE.team_id,
        user: ALICE,
        callbackId: 'agent_relay_send_to_agent',
        channel: 'CONE00001',
        message: {
          ts: reply,
          thread_ts: root,
          text: 'Looks like the cache key changed',
          user: 'UCAROL001',
        },
      }),
    );
    expect(res.status).toBe(200);
    const view = await waitUntil(() => lastOpened(w!));
    expect(view.callback_id).toBe('agent_relay_start_form');
    expect(initial(view, 'prompt')).toBe('Looks like the cache key changed');
    expect(w.api.okCallsTo('views.open')[0]?.token).toBe(ONE.token);
    // Environments and models are offered from the service's catalogue.
    expect(element(view, 'model')?.type).toBe('static_select');
    expect(element(view, 'model')?.options?.map((o) => o.value)).toContain('gpt-5-4-high');
    expect(element(view, 'env')?.type).toBe('static_select');
    expect(element(view, 'env')?.options?.map((o) => o.value)).toContain('env-web-app');

    const bad = await submitForm(
      w,
      view.private_metadata ?? '',
      { prompt: 'Fix the ARM cache key', skill: 'not a skill' },
      { model: null, env: null },
    );
    const errors = (await bad.json()) as {
      response_action: string;
      errors: Record<string, string>;
    };
    expect(errors.response_action).toBe('errors');
    expect(Object.keys(errors.errors)).toEqual(['skill']);

    const ok = await submitForm(
      w,
      view.private_metadata ?? '',
      { prompt: 'Fix the ARM cache key', skill: null },
      { model: 'gpt-5-4-high', env: null },
    );
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('');

    const store = w.service.store;
    const run = await waitUntil(
      async () => (await store.runs.listRecent('slack:TONE00001:', 5))[0],
    );
    expect(run.threadKey).toBe(`slack:TONE00001:CONE00001:${root}`);
    expect(run.requester.id).toBe(ALICE);
    expect(run.applied).toContainEqual({
      key: 'model',
      value: 'GPT-5.4 (gpt-5-4-high)',
      source: 'inline',
    });
    const status = await waitUntil(() =>
      w!.api.messages.find((m) => m.thread_ts === root && m.bot_id === ONE.bot_id),
    );
    expect(status.channel).toBe('CONE00001');
    const sent = await w.service.agent.getRun(run.runId);
    expect(sent.prompt).toContain('Fix the ARM cache key');
    expect(sent.prompt).toContain('The nightly build fails on ARM since Tuesday');
  });

  it('a form the relay did not open (bad metadata) is refused on the form, and nothing starts', async () => {
    w = await startWorkspaces([ONE]);
    await w.install('code-one');
    const res = await submitForm(w, '{"channel":"../x"}', {
      prompt: 'do it',
      model: null,
      env: null,
      skill: null,
    });
    expect(await res.json()).toMatchObject({
      response_action: 'errors',
      errors: { prompt: expect.stringContaining('could not be read') },
    });
    expect(await w.service.store.runs.listRecent('slack:', 5)).toEqual([]);
  });
});

describe('the slash command alone', () => {
  it('opens the start form; its run starts a new thread in the channel', async () => {
    w = await startWorkspaces([ONE]);
    await w.install('code-one');
    w.api.join('CONE00001', ALICE);
    expect((await w.postForm(slash(''))).status).toBe(200);
    const view = await waitUntil(() => lastOpened(w!));
    expect(initial(view, 'prompt')).toBeUndefined();
    // The place travels sealed (v1.<payload>.<mac>), for the person who opened the form.
    const [version, payload] = (view.private_metadata ?? '').split('.');
    expect(version).toBe('v1');
    expect(JSON.parse(Buffer.from(payload ?? '', 'base64url').toString())).toMatchObject({
      team: ONE.team_id,
      channel: 'CONE00001',
      user: ALICE,
    });

    await submitForm(w, view.private_metadata ?? '', {
      prompt: 'Summarise open incidents',
      model: null,
      env: null,
      skill: null,
    });
    const status = await waitUntil(() =>
      w!.api.messages.find((m) => m.channel === 'CONE00001' && m.bot_id === ONE.bot_id),
    );
    expect(status.thread_ts).toBeUndefined(); // top level: it anchors the run's thread
    // The run's thread becomes the status message's once it is posted.
    await waitUntil(
      async () =>
        (await w!.service.store.runs.listRecent('slack:TONE00001:', 5))[0]?.threadKey ===
        `slack:TONE00001:CONE00001:${status.ts}`,
      { timeoutMs: 10_000 },
    );

    expect(element(view, 'env')?.type).toBe('static_select');
    const opened = w.api.okCallsTo('views.open').length;
    expect((await w.postForm(slash('help'))).status).toBe(200);
    expect(w.api.okCallsTo('views.open')).toHaveLength(opened);
  });
});

describe('the start form while the catalogue cannot be read', () => {
  it('opens with typed environment and model fields, and a typed name still starts the run', async () => {
    w = await startWorkspaces([ONE]);
    await w.install('code-one');
    w.api.join('CONE00001', ALICE);
    const emulator = w.service.emulator!;
    emulator.faults.failNext(1, 503, { route: 'GET /agent/environments' });
    emulator.faults.failNext(1, 503, { route: 'GET /agent/models' });
    expect((await w.postForm(slash(''))).status).toBe(200);
    const view = await waitUntil(() => lastOpened(w!));
    expect(element(view, 'env')?.type).toBe('plain_text_input');
    expect(element(view, 'model')?.type).toBe('plain_text_input');
    await submitForm(w, view.private_metadata ?? '', {
      prompt: 'Summarise open incidents',
      model: null,
      env: 'env-typed',
      skill: null,
    });
    const run = await waitUntil(
      async () => (await w!.service.store.runs.listRecent('slack:TONE00001:', 5))[0],
      { timeoutMs: 10_000 },
    );
    const sent = await w.service.agent.getRun(run.runId);
    expect(sent.agent_config?.environment_id).toBe('env-typed');
  });
});
