import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyOptions } from '../../helpers/property.js';
import type { RunItem } from '../../../src/agent/schemas.js';
import type { MessageModel, RunView } from '../../../src/core/message/message-model.js';
import {
  configMessage,
  factoryChoice,
  followupSentMessage,
  helpMessage,
  listMessage,
  notice,
  runBriefMessage,
  runChoiceMessage,
  runOutcomeMessage,
  runStatusMessage,
} from '../../../src/core/message/render-model.js';
import { toRunView } from '../../../src/core/message/run-view.js';
import {
  CANCEL_ACTION_ID,
  STOP_ACTION_ID,
  renderSlackMessage,
} from '../../../src/slack/render/render-blocks.js';

const requester = { platform: 'slack' as const, id: 'UALICE01', name: 'alice' };
const applied = [
  { key: 'model' as const, value: 'claude-fast', source: 'inline' as const },
  { key: 'env' as const, value: 'env_web', source: 'default' as const },
  { key: 'skill' as const, source: 'service' as const },
];

function run(state: string, extra: Partial<RunItem> = {}): RunView {
  return toRunView({
    run: {
      run_id: 'run_7f3a9c',
      title: 'Fix the login redirect loop',
      state,
      prompt: 'Fix the login redirect loop',
      created_at: '2030-01-01T10:00:00Z',
      updated_at: '2030-01-01T10:04:12Z',
      started_at: '2030-01-01T10:00:00Z',
      session_link: 'https://agents.example.test/session/s_1',
      ...extra,
    },
    record: { requester, applied, factory: { alias: 'docs', name: 'Docs Team' } },
  });
}

const pr = {
  artifact_type: 'PULL_REQUEST',
  created_at: '2030-01-01T10:04:00Z',
  data: { url: 'https://github.com/acme/web/pull/7', branch: 'fix/login' },
};

const models: [string, MessageModel][] = [
  ['run_status queued', runStatusMessage(run('QUEUED'))],
  ['run_status running', runStatusMessage(run('INPROGRESS'))],
  [
    'run_status succeeded with PR',
    runStatusMessage(run('SUCCEEDED', { artifacts: [pr], run_time: 'PT4M12S' })),
  ],
  [
    'run_status failed',
    runStatusMessage(
      run('FAILED', { status_message: { message: 'Tests failed:\n3 errors in auth.spec.ts' } }),
    ),
  ],
  [
    'run_outcome succeeded',
    runOutcomeMessage(run('SUCCEEDED', { artifacts: [pr], run_time: 'PT4M12S' })),
  ],
  [
    'run_outcome blocked',
    runOutcomeMessage(
      run('BLOCKED', { status_message: { message: 'Which branch should I use?' } }),
    ),
  ],
  ['run_outcome cancelled', runOutcomeMessage(run('CANCELLED'))],
  ['followup_sent', followupSentMessage(run('INPROGRESS'), 'Also add a regression test')],
  [
    'run_list',
    listMessage(
      [
        run('INPROGRESS'),
        run('SUCCEEDED', { run_id: 'run_2', title: 'Update docs', run_time: 'PT1M' }),
      ],
      { state: ['INPROGRESS', 'SUCCEEDED'], mine: true },
      true,
    ),
  ],
  ['run_list empty', listMessage([], {}, false)],
  [
    'config',
    configMessage(
      'slack:T0000001:CGENERAL1',
      [
        { key: 'model', value: 'claude-fast', updatedBy: 'UALICE01' },
        { key: 'env', value: 'env_web' },
      ],
      ['model', 'skill'],
    ),
  ],
  ['config empty', configMessage('slack:T0000001:CGENERAL1', [])],
  ['help', helpMessage('/agent')],
  [
    'notice error with usage',
    notice('error', 'Unknown option "modle".', '/agent [options] <prompt>', requester),
  ],
  ['notice info', notice('info', 'The Agent Run Service is down; I will retry in 30 s.')],
  ['factory_choice none', factoryChoice('docs', [])],
  [
    'factory_choice none, with the factories there are',
    factoryChoice(
      'nosuch',
      [],
      [
        { uid: 'f_1', name: 'Docs Team', alias: 'docs' },
        { uid: 'f_3', name: 'Triage', alias: 'triage' },
      ],
    ),
  ],
  [
    'run_outcome failed',
    runOutcomeMessage(
      run('FAILED', { status_message: { message: 'npm ci exited 1' }, run_time: 'PT2M3S' }),
    ),
  ],
  ['run_brief with its status message', runBriefMessage(run('INPROGRESS'), {})],
  ['run_brief of a run started elsewhere', runBriefMessage(run('SUCCEEDED', { run_time: 'PT1M' }))],
  [
    'run_choice cancel',
    runChoiceMessage('cancel', [
      run('INPROGRESS'),
      run('QUEUED', { run_id: 'run_2', title: 'Update docs' }),
    ]),
  ],
  [
    'factory_choice several',
    factoryChoice('docs', [
      { uid: 'f_1', name: 'Docs Team', alias: 'docs' },
      { uid: 'f_2', name: 'Docs (staging)', alias: null },
    ]),
  ],
];

describe('renderSlackMessage: snapshots', () => {
  it.each(models)('%s', (_name, model) => {
    expect(renderSlackMessage(model)).toMatchSnapshot();
  });
});

function allText(value: unknown): string {
  return JSON.stringify(value);
}

/** What Slack parses as mrkdwn: the fallback text and every mrkdwn text object (plain_text is literal). */
function mrkdwnOf(rendered: { text: string; blocks: unknown[] }): string[] {
  const found: string[] = [rendered.text];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (typeof v !== 'object' || v === null) return;
    const o = v as Record<string, unknown>;
    if (o.type === 'mrkdwn' && typeof o.text === 'string') found.push(o.text);
    Object.values(o).forEach(walk);
  };
  walk(rendered.blocks);
  return found;
}

function buttons(model: MessageModel) {
  return renderSlackMessage(model).blocks.flatMap((b) => (b.type === 'actions' ? b.elements : []));
}

describe('renderSlackMessage: wording', () => {
  const textOf = (m: MessageModel) => JSON.stringify(renderSlackMessage(m).blocks);

  it('a failure says what to do next; a success does not', () => {
    for (const state of ['FAILED', 'ERROR', 'CANCELLED']) {
      // The card says it in full; the outcome line points at it in a few words.
      expect(textOf(runStatusMessage(run(state)))).toContain('Reply in this thread');
      expect(textOf(runStatusMessage(run(state)))).toContain('`new &lt;prompt&gt;`');
      expect(textOf(runOutcomeMessage(run(state)))).toContain('reply here');
      expect(textOf(runOutcomeMessage(run(state)))).not.toContain('Reply in this thread');
    }
    expect(textOf(runOutcomeMessage(run('SUCCEEDED')))).not.toContain('reply here');
    expect(textOf(runStatusMessage(run('SUCCEEDED')))).not.toContain('Reply in this thread');
  });

  it('what the service chose is said once, not per setting', () => {
    const view = toRunView({
      run: { run_id: 'r', title: 't', state: 'INPROGRESS' },
      record: {
        applied: [
          { key: 'model', source: 'service' },
          { key: 'env', source: 'service' },
          { key: 'skill', source: 'service' },
        ],
      },
    });
    const blocks = textOf(runStatusMessage(view));
    expect(blocks.split('service default').length - 1).toBe(1);
  });

  it('people the platform way, and when each run last moved, relative to now', () => {
    const listed = toRunView({
      run: { run_id: 'r', title: 't', state: 'SUCCEEDED', updated_at: '2030-01-01T10:00:00Z' },
      record: { requester: { platform: 'github', id: 'octocat' } },
      now: Date.parse('2030-01-01T10:05:30Z'),
    });
    const blocks = JSON.stringify(renderSlackMessage(listMessage([listed])).blocks);
    expect(blocks).toContain('5 minutes ago');
    expect(blocks).toContain('by @octocat (GitHub)');
  });

  it('a list notifies nobody: others by name, only the asker may be mentioned', () => {
    const by = (id: string, name?: string) => ({
      ...run('INPROGRESS'),
      requester: { platform: 'slack' as const, id, ...(name ? { name } : {}) },
    });
    const list = listMessage([by('UALICE01', 'alice'), by('UBOB0001', 'bob'), by('UCAROL01')], {});
    const asked = { ...list, asker: { platform: 'slack' as const, id: 'UALICE01' } };
    const text = JSON.stringify(renderSlackMessage(asked));
    expect(text.match(/<@U[A-Z0-9]+>/g)).toEqual(['<@UALICE01>']);
    expect(text).toContain('by bob');
    expect(text).toContain('by someone else');
    expect(JSON.stringify(renderSlackMessage(list))).not.toMatch(/<@U/);
  });

  it('a list says whose runs it holds', () => {
    const said = (scope: 'place' | 'asker' | 'admin') =>
      JSON.stringify(renderSlackMessage(listMessage([], {}, false, scope)).blocks);
    expect(said('place')).toContain('started in this channel');
    expect(said('asker')).toContain('yours, from every channel');
    expect(said('admin')).toContain('every run the service has');
  });

  it('a run choice offers one button per run, each naming its run', () => {
    const rendered = renderSlackMessage(
      runChoiceMessage('status', [run('INPROGRESS'), run('QUEUED', { run_id: 'run_2' })]),
    );
    const values = JSON.stringify(rendered.blocks).match(/"value":"[^"]+"/g);
    expect(values).toEqual(['"value":"run_7f3a9c"', '"value":"run_2"']);
  });
});

describe('renderSlackMessage: behaviour', () => {
  it('offers Stop and Cancel (with a confirm dialog) only while the run is live', () => {
    const live = buttons(runStatusMessage(run('INPROGRESS')));
    expect(live.map((b) => b.type === 'button' && [b.text.text, b.action_id])).toEqual([
      ['Open session', 'agent_relay_open_session'],
      ['Stop', STOP_ACTION_ID],
      ['Cancel', CANCEL_ACTION_ID],
    ]);
    // Stop only interrupts the turn: no confirm dialog, no danger style.
    expect(live[1]).toMatchObject({ value: 'run_7f3a9c' });
    expect(live[1]).not.toHaveProperty('confirm');
    expect(live[1]).not.toHaveProperty('style');
    const cancel = live[2];
    expect(cancel).toMatchObject({
      value: 'run_7f3a9c',
      style: 'danger',
      confirm: { title: { text: 'Cancel this run?' } },
    });
    for (const state of ['SUCCEEDED', 'FAILED', 'CANCELLED', 'BLOCKED']) {
      const ids = buttons(runStatusMessage(run(state))).map((b) => b.action_id);
      expect(ids, state).not.toContain(CANCEL_ACTION_ID);
      expect(ids, state).not.toContain(STOP_ACTION_ID);
    }
    const notCancellable = buttons(
      runStatusMessage(run('INPROGRESS', { is_run_type_cancellable: false })),
    );
    expect(notCancellable.map((b) => b.action_id)).not.toContain(CANCEL_ACTION_ID);
    expect(notCancellable.map((b) => b.action_id)).not.toContain(STOP_ACTION_ID);
  });

  it('mentions the requester in the outcome reply and its notification text', () => {
    const { text, blocks } = renderSlackMessage(runOutcomeMessage(run('SUCCEEDED')));
    expect(text).toContain('<@UALICE01>');
    expect(allText(blocks)).toContain('<@UALICE01>');
  });

  it('neutralises mentions and links in user and service text', () => {
    const hostile = 'hi <!channel> <!here> <@UEVIL001> <https://evil.test|click> & co';
    const view = run('FAILED', { title: hostile, status_message: { message: hostile } });
    const rendered = [
      renderSlackMessage(runStatusMessage(view)),
      renderSlackMessage(runOutcomeMessage(view)),
      renderSlackMessage(followupSentMessage(view, hostile)),
      renderSlackMessage(notice('error', hostile)),
      renderSlackMessage(listMessage([view])),
    ];
    for (const r of rendered) {
      const mrkdwn = mrkdwnOf(r).join('\n');
      expect(mrkdwn).not.toMatch(/<!channel>|<!here>|<@UEVIL001>|<https:\/\/evil/);
      expect(mrkdwn).toContain('&lt;!channel&gt;');
    }
  });

  it('keeps within Slack limits by truncating with an ellipsis', () => {
    const long = 'x'.repeat(5000);
    const { blocks, text } = renderSlackMessage(
      runStatusMessage(run('FAILED', { title: long, status_message: { message: long } })),
    );
    const head = blocks[0];
    expect(head?.type === 'header' && head.text.text.length).toBe(150);
    expect(head?.type === 'header' && head.text.text.endsWith('…')).toBe(true);
    for (const b of blocks) {
      if (b.type === 'section') expect(b.text?.text.length ?? 0).toBeLessThanOrEqual(3000);
    }
    expect(text.length).toBeLessThanOrEqual(3000);

    const many = Array.from({ length: 120 }, (_, i) => run('QUEUED', { run_id: `run_${i}` }));
    const list = renderSlackMessage(listMessage(many));
    expect(list.blocks.length).toBeLessThanOrEqual(50);
    expect(allText(list.blocks.at(-1))).toContain('More runs exist');
  });

  it('drops a session button whose URL is too long or not http(s)', () => {
    const tooLong = `https://agents.example.test/${'a'.repeat(3100)}`;
    for (const session_link of [tooLong, 'javascript:alert(1)']) {
      const ids = buttons(runStatusMessage(run('INPROGRESS', { session_link }))).map(
        (b) => b.action_id,
      );
      expect(ids).toEqual([STOP_ACTION_ID, CANCEL_ACTION_ID]);
    }
  });

  it('never lets arbitrary text produce Slack syntax or break a limit', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 4000 }), fc.string({ maxLength: 400 }), (words, title) => {
        const view = run('BLOCKED', { title, status_message: { message: words } });
        for (const model of [
          runStatusMessage(view),
          runOutcomeMessage(view),
          notice('warning', words),
        ]) {
          const { text, blocks } = renderSlackMessage(model);
          const mrkdwn = mrkdwnOf({ text, blocks }).join('\n');
          // The only Slack syntax is the renderer's own: the requester and the session link.
          const tokens = [...mrkdwn.matchAll(/<([^>]*)>/g)].map((m) => m[1]);
          for (const t of tokens)
            expect(t === '@UALICE01' || t?.startsWith('https://agents.example.test/')).toBe(true);
          expect(text.length).toBeLessThanOrEqual(3000);
          expect(blocks.length).toBeLessThanOrEqual(50);
          for (const b of blocks) {
            if (b.type === 'header') expect(b.text.text.length).toBeLessThanOrEqual(150);
            if (b.type === 'section') expect(b.text?.text.length ?? 0).toBeLessThanOrEqual(3000);
          }
        }
      }),
      propertyOptions(150),
    );
  });
});
