import { describe, expect, it } from 'vitest';
import { placeOf } from '../../src/console/places.js';

describe("a run's place in the console", () => {
  it('a Slack thread opens the thread, not the channel', () => {
    const place = placeOf('slack:T0000001:CGENERAL1:1700000000.000100', 'https://github.com');
    expect(place.url).toBe(
      'https://app.slack.com/client/T0000001/CGENERAL1/thread/CGENERAL1-1700000000.000100',
    );
  });

  it('a channel without a thread opens the channel', () => {
    expect(placeOf('slack:T0000001:CGENERAL1:', 'https://github.com').url).toContain(
      'app_redirect',
    );
  });

  it('a Linear session is labelled as one and opens its issue when known', () => {
    const key = 'linear:org-acme:team-eng:5b1e2c3d-0000-4000-8000-000000000001';
    expect(placeOf(key, 'https://github.com')).toEqual({
      label: 'Linear session 5b1e2c3d-0000-4000-8000-000000000001',
    });
  });
});
