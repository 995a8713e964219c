/**
 * The fake Slack holds every Web API call to `@slack/web-api`'s argument types
 * (`src/fakes/slack-published.ts`): a call with an argument the method does not take, or
 * without what it requires, answers Slack's `invalid_arguments`, a method the fake does not
 * serve answers `unknown_method`, and each is recorded as a refusal, which fails a test that
 * leaves one (`test/setup/published-fakes.ts`). The real WebClient's calls pass.
 */
import { WebClient } from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertNoRefusals, takeRefusals } from '../../src/fakes/published.js';
import { slackCallProblems } from '../../src/fakes/slack-published.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../src/fakes/slack-web-api.js';

const TOKEN = 'xoxb-dummy-published';
let slack: FakeSlackApi;
let client: WebClient;
beforeEach(async () => {
  slack = await startFakeSlackApi({ token: TOKEN });
  client = new WebClient(TOKEN, { slackApiUrl: slack.url, retryConfig: { retries: 0 } });
});
afterEach(() => slack.close());

describe("the fake Slack and @slack/web-api's argument types", () => {
  it("takes the real client's calls as the types describe them", async () => {
    const posted = await client.chat.postMessage({ channel: 'C1', text: 'Starting…' });
    await client.chat.update({ channel: 'C1', ts: posted.ts!, blocks: [] });
    await client.reactions.add({ channel: 'C1', timestamp: posted.ts!, name: 'eyes' });
    await client.conversations.replies({ channel: 'C1', ts: posted.ts!, limit: 200 });
    expect(takeRefusals()).toEqual([]);
  });

  it('refuses a message without text, blocks, attachments or markdown_text', async () => {
    const err = await client.apiCall('chat.postMessage', { channel: 'C1' }).catch((e) => e);
    expect(err).toMatchObject({ data: { ok: false, error: 'invalid_arguments' } });
    expect(takeRefusals()).toMatchObject([
      {
        platform: 'slack',
        request: 'chat.postMessage',
        problems: [/needs one of: channel \+ text/],
      },
    ]);
  });

  it('refuses an argument the method does not take, and a method the fake does not serve', async () => {
    const err = await client
      .apiCall('reactions.add', { channel: 'C1', timestamp: '1.2', name: 'eyes', emoji: 'x' })
      .catch((e) => e);
    expect(err).toMatchObject({ data: { error: 'invalid_arguments' } });
    const unknown = await client.apiCall('chat.scheduleMessage', {}).catch((e) => e);
    expect(unknown).toMatchObject({ data: { error: 'unknown_method' } });
    expect(takeRefusals().map((r) => r.problems[0])).toEqual([
      'emoji: not an argument of reactions.add',
      'chat.scheduleMessage: not a method the fake serves',
    ]);
  });

  it('checks the argument sets one of which a method requires', () => {
    expect(slackCallProblems('views.open', { view: {}, trigger_id: 't' })).toBeUndefined();
    expect(
      slackCallProblems('views.open', { view: {}, interactivity_pointer: 'p' }),
    ).toBeUndefined();
    expect(slackCallProblems('views.open', { trigger_id: 't' })?.problems).toEqual([
      'needs one of: trigger_id + view | interactivity_pointer + view',
    ]);
  });
});

describe('the guard every test runs after it (test/setup/published-fakes.ts)', () => {
  it('fails, naming the request and what was refused, when a refusal is left', async () => {
    await client.apiCall('reactions.add', { channel: 'C1' }).catch(() => undefined);
    expect(() => assertNoRefusals()).toThrow(
      /slack reactions\.add \(@slack\/web-api's method argument types\):\n {2}needs one of: channel \+ name \+ timestamp/,
    );
    // The guard took it: nothing is left for the setup's own check.
    expect(() => assertNoRefusals()).not.toThrow();
  });
});
