/** The start form's sealed metadata: only what the relay sealed, unchanged and fresh, opens. */
import { describe, expect, it } from 'vitest';
import { createStartFormSeal } from '../../../src/slack/shortcut/start-form-seal.js';

const place = {
  team: 'T0000001',
  channel: 'CGENERAL1',
  user: 'UALICE01',
  threadTs: '1700000000.000100',
};
const now = 1_700_000_000_000;

describe('start form seal', () => {
  const seal = createStartFormSeal('test-signing-secret-0123456789abcdef');

  it('opens what it sealed', () => {
    expect(seal.open(seal.seal(place, now), now + 1_000)).toEqual(place);
  });

  it('refuses a changed place, another key, plain JSON, and a form older than a day', () => {
    const sealed = seal.seal(place, now);
    const [v, payload, mac] = sealed.split('.');
    const other = Buffer.from(JSON.stringify({ ...place, team: 'TOTHER001', at: now })).toString(
      'base64url',
    );
    expect(seal.open(`${v}.${other}.${mac}`, now)).toBeUndefined();
    expect(
      createStartFormSeal('another-secret-0123456789abcdef').open(sealed, now),
    ).toBeUndefined();
    expect(seal.open(JSON.stringify(place), now)).toBeUndefined();
    expect(seal.open(`${v}.${payload}.`, now)).toBeUndefined();
    expect(seal.open(sealed, now + 25 * 3_600_000)).toBeUndefined();
  });
});
