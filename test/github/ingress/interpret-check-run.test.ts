/**
 * `check_run` webhooks -> triggers: a click on Stop or Cancel is that command for the run
 * named by `external_id`, Re-run asks to try it again; anything else is ignored or refused as
 * invalid, never a crash.
 */
import { describe, expect, it } from 'vitest';
import { interpretEvent } from '../../../src/github/ingress/interpret-event.js';
import { fixture, type Change } from '../fixtures.js';

const OPTS = {
  botHandle: 'agent-relay',
  triggerLabel: 'agent',
  maxBodyChars: 1000,
  deliveryId: 'd-1',
  receivedAt: '2026-11-28T05:40:00Z',
};
const interpret = (change?: Change) =>
  interpretEvent('check_run', fixture('check-run-requested-action', change), OPTS);

describe('check_run webhooks', () => {
  it('Stop: the stop command for the check run’s run, in the pull request’s conversation', () => {
    const meaning = interpret();
    expect(meaning).toMatchObject({
      kind: 'candidate',
      permission: { kind: 'repo-access' },
      installationId: 2311213,
      trigger: {
        kind: 'check_run_action',
        text: 'stop',
        addressed: true,
        runId: 'run_01HZX3K9V7Q2M8N4P6R0S5T1UA',
        threadKey: 'github:octo-org/widgets#7',
        settingsScope: 'github:octo-org/widgets',
        actor: { id: 'alice' },
      },
    });
  });

  it('a fork’s check run lists no pull request: the one its id carries is the thread', () => {
    const fromFork = interpret((p) => {
      p.check_run.external_id = 'run_01HZX3K9V7Q2M8N4P6R0S5T1UA#12';
      p.check_run.pull_requests = [];
    });
    expect(fromFork).toMatchObject({
      kind: 'candidate',
      trigger: { runId: 'run_01HZX3K9V7Q2M8N4P6R0S5T1UA', threadKey: 'github:octo-org/widgets#12' },
    });
    // Where GitHub lists another pull request of the same commit, the run's own is the thread.
    const listed = interpret(
      (p) => (p.check_run.external_id = 'run_01HZX3K9V7Q2M8N4P6R0S5T1UA#12'),
    );
    expect(listed).toMatchObject({
      trigger: { runId: 'run_01HZX3K9V7Q2M8N4P6R0S5T1UA', threadKey: 'github:octo-org/widgets#12' },
    });
  });

  it('Cancel and Re-run', () => {
    const cancel = interpret((p) => (p.requested_action.identifier = 'cancel'));
    expect(cancel).toMatchObject({ trigger: { kind: 'check_run_action', text: 'cancel' } });
    const rerun = interpret((p) => {
      p.action = 'rerequested';
      delete p.requested_action;
    });
    expect(rerun).toMatchObject({ trigger: { kind: 'check_run_rerequested' } });
  });

  it.each<[string, Change, string]>([
    ['a button of someone else', (p) => (p.requested_action.identifier = 'deploy'), 'ignore'],
    ['no run id', (p) => (p.check_run.external_id = ''), 'ignore'],
    ['no pull request', (p) => (p.check_run.pull_requests = []), 'ignore'],
    ['a bot clicking', (p) => (p.sender.type = 'Bot'), 'ignore'],
    ['created (our own write)', (p) => (p.action = 'created'), 'ignore'],
    ['no repository', (p) => delete p.repository, 'invalid'],
    [
      'a pull request number that is no number',
      (p) => (p.check_run.pull_requests[0].number = 'x'),
      'invalid',
    ],
  ])('%s -> %s', (_name, change, kind) => {
    expect(interpret(change).kind).toBe(kind);
  });
});
