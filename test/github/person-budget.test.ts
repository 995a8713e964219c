/**
 * A person's budget on GitHub, through the running relay and the fake GitHub: it is set per
 * repository (a limit set in one repository holds there only), keyed by the login in any case,
 * and only an admin of the repository may set it; someone with write access is refused and
 * nothing is stored.
 */
import { describe, expect, it } from 'vitest';
import { commentEvent } from './fixtures.js';
import { postGitHub } from '../helpers/github.js';
import { waitUntil } from '../helpers/wait-until.js';
import { relayPerTest, type Relay } from '../helpers/relay.js';

const start = relayPerTest();
async function comment(r: Relay, text: string, login: string): Promise<void> {
  const c = commentEvent('pull', 7, login, 'MEMBER', text);
  const res = await postGitHub(r.githubWebhooks, c.body, c.delivery);
  expect([200, 202]).toContain(res.status);
}

const said = (r: Relay, words: RegExp) =>
  waitUntil(() => [...r.github.comments.values()].find((c) => words.test(c.body)), {
    timeoutMs: 8_000,
    message: String(words),
  });

describe('GitHub: a person’s budget', () => {
  it('someone with write access cannot set another person’s budget', async () => {
    const r = await start();
    r.github.setPermission('octo-org', 'widgets', 'mallory', 'write');
    await comment(r, '@agent-relay config user=@bob budget=0', 'mallory');
    await said(r, /Only an admin of this repository/);
    const store = r.service.store;
    expect(await store.settings.list('github-user:octo-org/widgets:bob')).toEqual([]);
    expect(await store.settings.list('github-user:bob')).toEqual([]);
  });

  it('an admin of the repository sets it, for this repository, whatever the login’s case', async () => {
    const r = await start();
    r.github.setPermission('octo-org', 'widgets', 'alice', 'admin');
    await comment(r, '@agent-relay config user=@Bob budget=0', 'alice');
    await said(r, /budget/);
    const store = r.service.store;
    await waitUntil(
      async () =>
        (await store.settings.list('github-user:octo-org/widgets:bob')).length === 1
          ? true
          : undefined,
      { timeoutMs: 5_000, message: 'the budget stored' },
    );
    // bob (as GitHub spells him in his own comment) is held by it here.
    r.github.setPermission('octo-org', 'widgets', 'BOB', 'write');
    await comment(r, '@agent-relay fix the flaky test', 'BOB');
    await said(r, /Your runs have spent/);
    expect(r.emulator.runs.count()).toBe(0);
  });

  it("someone with write access cannot change the repository's budget; an admin can", async () => {
    const r = await start();
    r.github.setPermission('octo-org', 'widgets', 'mallory', 'write');
    r.github.setPermission('octo-org', 'widgets', 'alice', 'admin');
    const store = r.service.store;
    await comment(r, '@agent-relay config budget=1000', 'mallory');
    await said(r, /Only an admin of this repository/);
    expect(await store.settings.list('github:octo-org/widgets')).toEqual([]);
    await comment(r, '@agent-relay config budget=5', 'alice');
    await waitUntil(
      async () =>
        (await store.settings.list('github:octo-org/widgets')).length === 1 ? true : undefined,
      { timeoutMs: 5_000, message: 'the budget stored' },
    );
  });
});
