/** The App Home view as Slack receives it (snapshot), and its limits. */
import { describe, expect, it } from 'vitest';
import { toRunView } from '../../../src/core/message/run-view.js';
import type { HomeRun } from '../../../src/slack/home/home-view.js';
import { buildHomeView } from '../../../src/slack/home/home-view.js';

function homeRun(i: number, state: string, extra: Partial<HomeRun> = {}): HomeRun {
  return {
    view: toRunView({
      run: {
        run_id: `run_${i}`,
        title: i === 1 ? 'Fix *bold* <script> & friends' : `Run number ${i}`,
        state,
        session_link: `https://agents.example.test/sessions/${i}`,
        run_time: 'PT4M12S',
        artifacts: [
          { artifact_type: 'PULL_REQUEST', data: { url: `https://github.com/acme/app/pull/${i}` } },
        ],
      } as never,
    }),
    channel: 'CBACKEND1',
    threadUrl: `https://app.slack.com/client/T1/CBACKEND1/thread/CBACKEND1-170000000${i}.000100`,
    ...extra,
  };
}

describe('App Home view', () => {
  it('renders live runs first with Cancel, then ended ones, defaults and collapsed channel runs', () => {
    const view = buildHomeView({
      mine: [homeRun(1, 'SUCCEEDED'), homeRun(2, 'INPROGRESS')],
      channels: [homeRun(3, 'QUEUED', { requesterId: 'UBOB00001' })],
      showChannels: false,
      personal: { model: 'fast' },
    });
    expect(view).toMatchSnapshot();
    const text = JSON.stringify(view);
    expect(text).not.toContain('<script>');
    expect(text).not.toContain('Run number 3'); // collapsed
  });

  it('stays within 100 blocks however many runs there are', () => {
    const many = Array.from({ length: 200 }, (_, i) => homeRun(i + 10, 'INPROGRESS'));
    const view = buildHomeView({ mine: many, channels: many, showChannels: true, personal: {} });
    expect(view.blocks.length).toBeLessThanOrEqual(100);
  });
});
