import { describe, expect, it } from 'vitest';
import { buildHomeView } from '../../../src/slack/home/home-view.js';

describe("App Home: the viewer's month", () => {
  it('says what their runs this month cost, approximately', () => {
    const view = buildHomeView({
      mine: [],
      month: { name: 'November 2026', spentUsd: 3.1, runs: 4 },
      channels: [],
      showChannels: false,
      personal: {},
    });
    expect(JSON.stringify(view.blocks)).toContain(
      'November 2026 (UTC): ≈ $3.10 over 4 runs (approximate)',
    );
  });

  it('says nothing when none of their runs reported a cost', () => {
    const view = buildHomeView({ mine: [], channels: [], showChannels: false, personal: {} });
    expect(JSON.stringify(view.blocks)).not.toContain('≈');
  });
});
