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
});
