/**
 * The Teams renderer: every sample message model as the activity Teams is sent (snapshots),
 * the status card's Stop and Cancel only on the live view and its refresh only for the
 * requester while the run can be stopped, the outcome's real mention, and nothing a person or
 * the service wrote read as Markdown.
 */
import { describe, expect, it } from 'vitest';
import { renderStatusCard, renderTeamsMessage } from '../../src/teams/index.js';
import { SAMPLE_MODELS, sampleRun } from '../github/models.js';

const OPTIONS = { botHandle: 'agent-relay' };
const alice = { platform: 'teams' as const, id: '29:1alice', name: 'Alice Park' };

describe('the Teams renderer', () => {
  it.each(Object.entries(SAMPLE_MODELS))('%s', (_name, model) => {
    expect(renderTeamsMessage(model, OPTIONS)).toMatchSnapshot();
  });

  it('the card everyone sees has no buttons; the live view has Stop and Cancel for the run', () => {
    const run = sampleRun('INPROGRESS', { requester: alice });
    const card = renderStatusCard(run, OPTIONS);
    const json = JSON.stringify(card);
    expect(json).not.toContain('"title":"Stop"');
    expect(card.refresh).toEqual({
      action: {
        type: 'Action.Execute',
        title: 'Refresh',
        verb: 'refresh',
        data: { runId: run.runId },
      },
      userIds: ['29:1alice'],
    });
    const live = JSON.stringify(renderStatusCard(run, OPTIONS, { live: true }));
    expect(live).toContain(
      `{"type":"Action.Execute","title":"Stop","verb":"stop","data":{"runId":"${run.runId}"}}`,
    );
    expect(live).toContain('"title":"Cancel","verb":"cancel","style":"destructive"');
  });

  it('an ended run offers no buttons and asks for no refresh', () => {
    const run = sampleRun('SUCCEEDED', { requester: alice });
    const card = renderStatusCard(run, OPTIONS, { live: true });
    expect(card.refresh).toBeUndefined();
    expect(JSON.stringify(card)).not.toContain('Action.Execute');
  });

  it('the outcome mentions the requester for real; their words are not markup', () => {
    const run = sampleRun('SUCCEEDED', {
      requester: { ...alice, name: 'Alice <b>Park</b>' },
      title: 'fix *all* the [things](https://evil.example)',
    });
    const activity = renderTeamsMessage({ type: 'run_outcome', run }, OPTIONS);
    expect(activity.entities).toEqual([
      {
        type: 'mention',
        text: '<at>Alice &lt;b&gt;Park&lt;/b&gt;</at>',
        mentioned: { id: '29:1alice', name: 'Alice <b>Park</b>' },
      },
    ]);
    expect(activity.text).toContain('**fix \\*all\\* the \\[things\\](https://evil.example)**');
  });
});
