import { describe, expect, it } from 'vitest';
import { appliedSettings, effectiveOptions } from '../../../src/core/message/applied-settings.js';
import type { RunOptions } from '../../../src/core/command/command.js';
import type { AppliedSetting } from '../../../src/core/message/message-model.js';

describe('appliedSettings', () => {
  it.each<[string, RunOptions, RunOptions, AppliedSetting[]]>([
    [
      'nothing given: the service chooses everything',
      {},
      {},
      [
        { key: 'model', source: 'service' },
        { key: 'env', source: 'service' },
        { key: 'skill', source: 'service' },
        { key: 'factory', source: 'service' },
        { key: 'mode', source: 'service' },
      ],
    ],
    [
      'inline beats default, default beats service',
      { model: 'm-inline', mode: 'plan', title: 'ignored' },
      { model: 'm-default', env: 'e-default', name: 'ignored' },
      [
        { key: 'model', value: 'm-inline', source: 'inline' },
        { key: 'env', value: 'e-default', source: 'default' },
        { key: 'skill', source: 'service' },
        { key: 'factory', source: 'service' },
        { key: 'mode', value: 'plan', source: 'inline' },
      ],
    ],
    [
      'empty values count as absent',
      { skill: '' },
      { skill: 'o/r:s', factory: '' },
      [
        { key: 'model', source: 'service' },
        { key: 'env', source: 'service' },
        { key: 'skill', value: 'o/r:s', source: 'default' },
        { key: 'factory', source: 'service' },
        { key: 'mode', source: 'service' },
      ],
    ],
  ])('%s', (_name, inline, defaults, expected) => {
    expect(appliedSettings(inline, defaults)).toEqual(expected);
  });

  it('effectiveOptions lays inline over defaults', () => {
    expect(
      effectiveOptions({ model: 'a', env: '' }, { model: 'b', env: 'e', skill: 'o/r:s' }),
    ).toEqual({
      model: 'a',
      env: 'e',
      skill: 'o/r:s',
    });
  });
});
