import { describe, expect, it } from 'vitest';
import { ENDED_STATES, KNOWN_STATES, LIVE_STATES } from '../../../src/core/run.js';
import {
  KNOWN_STATE_NAMES,
  isKnownState,
  stateView,
} from '../../../src/core/message/state-view.js';

describe('stateView', () => {
  it.each([
    [
      'QUEUED',
      'Waiting for a machine',
      '⏳',
      { live: true, ended: false, blocked: false, success: undefined },
    ],
    [
      'PENDING',
      'Waiting for a machine',
      '⏳',
      { live: true, ended: false, blocked: false, success: undefined },
    ],
    [
      'CLAIMED',
      'Getting ready',
      '🛫',
      { live: true, ended: false, blocked: false, success: undefined },
    ],
    [
      'INPROGRESS',
      'Running',
      '🏃',
      { live: true, ended: false, blocked: false, success: undefined },
    ],
    [
      'BLOCKED',
      'Waiting for input',
      '✋',
      { live: false, ended: false, blocked: true, success: undefined },
    ],
    ['SUCCEEDED', 'Succeeded', '✅', { live: false, ended: true, blocked: false, success: true }],
    ['FAILED', 'Failed', '❌', { live: false, ended: true, blocked: false, success: false }],
    ['ERROR', 'Error', '💥', { live: false, ended: true, blocked: false, success: false }],
    ['CANCELLED', 'Cancelled', '🚫', { live: false, ended: true, blocked: false, success: false }],
    [
      'PAUSED_FOR_REVIEW',
      'PAUSED_FOR_REVIEW',
      '❔',
      { live: true, ended: false, blocked: false, success: undefined },
    ],
    ['queued', 'queued', '❔', { live: true, ended: false, blocked: false, success: undefined }],
  ] as const)('%s', (state, label, emoji, kind) => {
    const view = stateView(state);
    expect(view).toMatchObject({
      name: state,
      label,
      emoji,
      live: kind.live,
      ended: kind.ended,
      blocked: kind.blocked,
    });
    expect(view.success).toBe(kind.success);
    expect('success' in view).toBe(kind.success !== undefined);
  });

  it('covers exactly the contract states, agreeing with its classification', () => {
    expect([...KNOWN_STATE_NAMES].sort()).toEqual([...KNOWN_STATES].sort());
    for (const s of LIVE_STATES) expect(stateView(s).live).toBe(true);
    for (const s of ENDED_STATES) expect(stateView(s).ended).toBe(true);
    expect(isKnownState('BLOCKED')).toBe(true);
    expect(isKnownState('toString')).toBe(false);
    expect(stateView('toString').label).toBe('toString');
  });
});
