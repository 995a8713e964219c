import { describe, expect, it } from 'vitest';
import { formatDuration, parseIsoDuration } from '../../../src/core/message/duration.js';
import { eachMapsTo } from '../../helpers/cases.js';

describe('formatDuration', () => {
  eachMapsTo(formatDuration, [
    [0, '0s'],
    [-5, '0s'],
    [Number.NaN, '0s'],
    [Number.POSITIVE_INFINITY, '0s'],
    [1, '<1s'],
    [999, '<1s'],
    [1000, '1s'],
    [59_999, '59s'],
    [60_000, '1m'],
    [65_500, '1m 5s'],
    [252_000, '4m 12s'],
    [3_600_000, '1h'],
    [3_600_000 + 5 * 60_000 + 59_000, '1h 5m'],
    [86_400_000, '1d'],
    [3 * 86_400_000 + 4 * 3_600_000 + 1, '3d 4h'],
  ]);
});

describe('parseIsoDuration', () => {
  eachMapsTo(parseIsoDuration, [
    ['PT1M5.5S', 65_500],
    ['PT0S', 0],
    ['PT4M12S', 252_000],
    ['PT2H', 7_200_000],
    ['PT1H30M', 5_400_000],
    ['P1D', 86_400_000],
    ['P1DT1S', 86_401_000],
    ['P2W', 14 * 86_400_000],
    ['P1Y', 365 * 86_400_000],
    ['P1M', 30 * 86_400_000],
    ['PT0,5S', 500],
    ['pt3s', 3000],
    [' PT3S ', 3000],
    ['PT0.0001S', 0],
  ]);

  it.each([
    '',
    'P',
    'PT',
    'T1S',
    '1m5s',
    'PT1.S',
    'PT-1S',
    '-PT1S',
    'PT1S1M',
    'PTS',
    'P1H',
    'PT1D',
    'abc',
  ])('rejects %j', (text) => {
    expect(parseIsoDuration(text)).toBeUndefined();
  });
});
