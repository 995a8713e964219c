/** The session and the messages the Linear notifier tests deliver into it. */
import { startFakeLinear, type FakeLinear } from '../../src/fakes/linear-graphql-api.js';
import { runStatusMessage } from '../../src/core/message/render-model.js';
import { startingView, toRunView } from '../../src/core/message/run-view.js';
import type { RunItem } from '../../src/core/run.js';

/** Session `s1` of the fake's first workspace. */
export const to = { threadKey: 'linear:org-acme:team-eng:s1' };

/** The fake Linear API with session `s1` (the one `to` names) open on an issue of Ada's. */
export async function startLinearWithSession(): Promise<FakeLinear> {
  const linear = await startFakeLinear();
  linear.sessions.set('s1', {
    id: 's1',
    organizationId: 'org-acme',
    issueId: 'i1',
    creatorId: 'user-ada',
    externalUrls: [],
    createdAt: 0,
  });
  return linear;
}

export const starting = runStatusMessage(
  startingView({
    title: 'Fix it',
    prompt: 'Fix it',
    requester: { platform: 'linear', id: 'u' },
    applied: [],
  }),
);

/** Run `r1` in `state`, as the tracker sees it. */
export const view = (state: string, extra: Partial<RunItem> = {}) =>
  toRunView({
    run: { run_id: 'r1', title: 'Fix it', state, session_link: 'http://agent.test/s/r1', ...extra },
  });
