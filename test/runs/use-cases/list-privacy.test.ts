/**
 * `list` shows only what the place may see: Slack and GitHub runs side by side, plus runs the
 * relay did not start. A public answer never carries another place's runs.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { MessageModel } from '../../../src/core/message/message-model.js';
import type { RecordedPost } from '../recording-notifier.js';
import { flushOutbox, githubComment, handle, slackMention, testEnvPerTest } from '../fixtures.js';

const env = testEnvPerTest();
beforeEach(async () => {
  // Runs somebody started with the same API key outside the relay.
  env.emulator.seedRuns(3, { manual: true, state: 'SUCCEEDED', prompt: (i) => `outside ${i}` });
  // A private Slack channel, two repositories.
  await handle(
    env,
    slackMention({
      text: 'secret slack plan',
      settingsScope: 'slack:T1:C9',
      threadKey: 'slack:T1:C9:1700000999.000100',
      triggerMessage: { threadKey: 'slack:T1:C9:1700000999.000100', id: 'C9:1700000999.000100' },
    }),
  );
  await handle(env, githubComment({ text: '@agent-relay fix the widgets typo' }));
  await handle(
    env,
    githubComment({
      text: '@agent-relay other repository work',
      threadKey: 'github:octo/secret#3',
      settingsScope: 'github:octo/secret',
    }),
  );
  await flushOutbox(env);
  env.slack.posts.length = 0;
  env.github.posts.length = 0;
});

function lists(posts: RecordedPost[]): { post: RecordedPost; titles: string[] }[] {
  return posts
    .filter((p) => p.message.type === 'run_list')
    .map((post) => ({
      post,
      titles: (post.message as Extract<MessageModel, { type: 'run_list' }>).runs.map(
        (r) => r.title,
      ),
    }));
}

describe('list privacy', () => {
  it("a GitHub `list` shows this repository's runs only", async () => {
    await handle(env, githubComment({ text: '@agent-relay list' }));
    await flushOutbox(env);
    const [answer] = lists(env.github.posts);
    expect(answer?.post.to.privateTo).toBeUndefined();
    expect(answer?.titles).toEqual(['fix the widgets typo']);
  });

  it("a Slack `list` in a channel shows that channel's runs only", async () => {
    await handle(
      env,
      slackMention({ text: 'list', settingsScope: 'slack:T1:C9', threadKey: 'slack:T1:C9:1.2' }),
    );
    await handle(env, slackMention({ text: 'list' }));
    await flushOutbox(env);
    const all = lists(env.slack.posts);
    const inC9 = all.find((l) => l.post.to.threadKey.includes(':C9:'));
    const inC1 = all.find((l) => l.post.to.threadKey.includes(':C1:'));
    expect(inC9?.titles).toEqual(['secret slack plan']);
    expect(inC1?.titles).toEqual([]);
  });

  it('`list mine` is answered privately, across places, with the asker’s runs only', async () => {
    await handle(env, slackMention({ text: 'list mine', actor: { id: 'U1', name: 'alice' } }));
    await flushOutbox(env);
    const [answer] = lists(env.slack.posts);
    expect(answer?.post.to.privateTo).toBe('U1');
    expect(answer?.titles).toEqual(['secret slack plan']);
  });

  it('`list mine` on GitHub, which has no private answer, stays in this repository', async () => {
    await handle(env, githubComment({ text: '@agent-relay list mine' }));
    await flushOutbox(env);
    const [answer] = lists(env.github.posts);
    expect(answer?.titles).toEqual(['fix the widgets typo']);
  });

  it('runs the relay did not start are listed only for an admin of the relay in a direct message', async () => {
    const dm = (id: string) =>
      slackMention({
        kind: 'direct_message',
        text: 'list',
        actor: { id, ...(id === 'UADMIN' ? { admin: true, relayAdmin: true } : {}) },
        threadKey: 'slack:T1:D1:1700000555.000100',
        settingsScope: 'slack:T1:D1',
        triggerMessage: { threadKey: 'slack:T1:D1:1700000555.000100', id: 'D1:1700000555.000100' },
      });
    await handle(env, dm('U1'));
    await handle(env, dm('UADMIN'));
    // An admin in a public channel still sees only that channel.
    await handle(
      env,
      slackMention({ text: 'list', actor: { id: 'UADMIN', admin: true, relayAdmin: true } }),
    );
    await flushOutbox(env);
    const all = lists(env.slack.posts);
    const user = all.find((l) => l.post.to.threadKey.includes(':D1:') && !l.post.to.privateTo);
    const admin = all.find((l) => l.post.to.privateTo === 'UADMIN');
    const adminInChannel = all.find((l) => l.post.to.threadKey.includes(':C1:'));
    expect(all).toHaveLength(3);
    expect(user?.titles).toEqual([]);
    expect(admin?.titles).toHaveLength(6);
    expect(admin?.titles.filter((t) => t.startsWith('outside'))).toHaveLength(3);
    expect(adminInChannel?.titles).toEqual([]);
  });
});

describe('a run named by its id from another place', () => {
  async function slackRunId(): Promise<string> {
    const thread = await env.store.threads.get('slack:T1:C9:1700000999.000100');
    return thread!.currentRunId!;
  }

  it('GitHub cannot read or cancel a Slack run by its id', async () => {
    const runId = await slackRunId();
    env.emulator.setState(runId, 'INPROGRESS');
    await handle(env, githubComment({ text: `@agent-relay status ${runId}` }));
    await handle(env, githubComment({ text: `@agent-relay cancel ${runId}` }));
    await flushOutbox(env);
    expect(env.emulator.runs.get(runId)?.state).toBe('INPROGRESS');
    const said = JSON.stringify(env.github.posts.map((p) => p.message));
    expect(said).not.toContain('secret slack plan');
    expect(env.github.posts.map((p) => p.message.type)).toEqual(['notice', 'notice']);
  });

  it('someone else in another channel is not shown it; its requester is, privately', async () => {
    const runId = await slackRunId();
    await handle(env, slackMention({ text: `status ${runId}`, actor: { id: 'U2' } }));
    await handle(env, slackMention({ text: `status ${runId}`, actor: { id: 'U1' } }));
    await flushOutbox(env);
    const toU2 = env.slack.posts.filter((p) => JSON.stringify(p).includes('U2') || !p.to.privateTo);
    expect(JSON.stringify(toU2.map((p) => p.message))).not.toContain('secret slack plan');
    const toU1 = env.slack.posts.find((p) => p.message.type === 'run_brief');
    expect(toU1?.to.privateTo).toBe('U1');
  });
});
