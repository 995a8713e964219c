/** Where each setting comes from: inline > the person's own default > channel/repo > service. */
import { describe, expect, it } from 'vitest';
import { appliedSettings } from '../../../src/core/message/applied-settings.js';

describe('appliedSettings with personal defaults', () => {
  it.each([
    [{ model: 'i' }, { model: 'c' }, { model: 'p' }, { value: 'i', source: 'inline' }],
    [{}, { model: 'c' }, { model: 'p' }, { value: 'p', source: 'personal' }],
    [{}, { model: 'c' }, {}, { value: 'c', source: 'default' }],
    [{}, {}, { model: '' }, { source: 'service' }],
  ])('inline %j, channel %j, personal %j -> %j', (inline, channel, personal, expected) => {
    const model = appliedSettings(inline, channel, personal).find((s) => s.key === 'model');
    expect(model).toEqual({ key: 'model', ...expected });
  });
});
