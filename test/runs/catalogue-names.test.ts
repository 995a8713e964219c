/**
 * env= and model= by name, through the running relay against the emulator's catalogue and
 * the fake Slack and GitHub APIs: a name (or an unambiguous prefix) becomes the id the
 * service gets; an unknown or ambiguous one is answered privately with the close names and
 * nothing public is posted, nothing created; defaults are checked when set; a GitHub request
 * in a place without a default environment gets the environment that holds its repository.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureText } from '../github/fixtures.js';
import type { Payload } from '../github/fixtures.js';
import { waitUntil } from '../helpers/wait-until.js';
import { relayPerTest, startRelay } from '../helpers/relay.js';
import type { Relay } from '../helpers/relay.js';
import { slashCommandBody } from '../helpers/slack.js';

const ADMIN = { SLACK_ADMIN_USERS: 'UADMIN01' };
const start = relayPerTest({ env: ADMIN });
let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

const CATALOGUE = {
  environments: [
    { uid: 'env-web-app', name: 'Web App', repos: ['acme/web'] },
    { uid: 'env-web-api', name: 'Web API', repos: ['acme/api'] },
    { uid: 'env-payments', name: 'Payments', repos: ['acme/payments'] },
  ],
  models: [
    { id: 'claude-4-6-sonnet', displayName: 'Claude Sonnet 4.6', provider: 'ANTHROPIC' as const },
    { id: 'gpt-5-4-high', displayName: 'GPT-5.4', provider: 'OPENAI' as const },
    { id: 'gemini-3-pro', displayName: 'Gemini 3 Pro', provider: 'GOOGLE' as const },
    {
      id: 'o-old',
      displayName: 'Old One',
      provider: 'OPENAI' as const,
      disableReason: 'PROVIDER_OUTAGE' as const,
    },
  ],
  defaultModelId: 'claude-4-6-sonnet',
};

async function relayWithCatalogue(): Promise<Relay> {
  const r = await start();
  r.emulator.catalogue.set(CATALOGUE);
  return r;
}

async function slash(r: Relay, text: string, user = 'UALICE01'): Promise<void> {
  const res = await r.postSlack(slashCommandBody({ text, user }));
  expect(res.status).toBe(200);
  await res.arrayBuffer();
}

/**
 * `/agent <text>` from Alice, refused in private: the reply that matches `said`, once a while
 * later nothing was posted in public and nothing created.
 */
async function refusedPrivately(r: Relay, text: string, said: RegExp): Promise<string> {
  await slash(r, text);
  const reply = await waitUntil(() => ephemerals(r).find((t) => said.test(t)), {
    timeoutMs: 8_000,
  });
  await settle();
  expect(publicPosts(r)).toEqual([]);
  expect(creates(r)).toBe(0);
  return reply;
}

const ephemerals = (r: Relay) =>
  r.slack.okCallsTo('chat.postEphemeral').map((c) => String(c.params.text));
const publicPosts = (r: Relay) =>
  r.slack.okCallsTo('chat.postMessage').map((c) => JSON.stringify(c.params));
const creates = (r: Relay) => r.emulator.requests.get('POST /agent/runs');

describe('Slack: env= and model= by name', () => {
  it('a name and a prefix become the ids the service gets; the status message names them', async () => {
    const r = await relayWithCatalogue();
    await slash(r, 'env=payments model=gemini fix the refund rounding');
    const run = await waitUntil(() => r.emulator.runs.all()[0], { timeoutMs: 8_000 });
    expect(run.agent_config).toMatchObject({
      environment_id: 'env-payments',
      model_id: 'gemini-3-pro',
    });
    const status = await waitUntil(() => publicPosts(r).find((p) => p.includes('env-payments')), {
      timeoutMs: 8_000,
    });
    expect(status).toContain('Payments (env-payments)');
    expect(status).toContain('Gemini 3 Pro (gemini-3-pro)');
  });

  it('a name with spaces typed with dashes, any case, and an exact id all resolve', async () => {
    const r = await relayWithCatalogue();
    await slash(r, 'env=WEB-APP model=gpt-5-4-high tidy the header');
    const run = await waitUntil(() => r.emulator.runs.all()[0], { timeoutMs: 8_000 });
    expect(run.agent_config).toMatchObject({
      environment_id: 'env-web-app',
      model_id: 'gpt-5-4-high',
    });
  });

  it('an unknown environment: a private reply with the close names; nothing public, no run', async () => {
    const r = await relayWithCatalogue();
    const reply = await refusedPrivately(
      r,
      'env=paymnts fix the refund rounding',
      /No environment/,
    );
    expect(reply).toContain('`paymnts`');
    expect(reply).toContain('Payments (env-payments)');
    expect(r.slack.okCallsTo('reactions.add')).toEqual([]);
    expect(r.emulator.runs.count()).toBe(0);
  });

  it('an ambiguous prefix lists the candidates and starts nothing', async () => {
    const r = await relayWithCatalogue();
    const reply = await refusedPrivately(r, 'env=web fix the header', /more than one/);
    expect(reply).toContain('Web App (env-web-app)');
    expect(reply).toContain('Web API (env-web-api)');
    expect(reply).not.toContain('Payments');
  });

  it('a model the service marks unavailable is refused with its reason', async () => {
    const r = await relayWithCatalogue();
    const reply = await refusedPrivately(
      r,
      'model=old-one summarise the incident',
      /cannot be used/,
    );
    expect(reply).toContain('PROVIDER_OUTAGE');
  });

  it('with the catalogue down, the value is sent as given and the outage is logged', async () => {
    const r = await relayWithCatalogue();
    r.emulator.faults.failNext(5, 503, { route: 'GET /agent/environments' });
    await slash(r, 'env=env-anything fix the header');
    const run = await waitUntil(() => r.emulator.runs.all()[0], { timeoutMs: 8_000 });
    expect(run.agent_config).toMatchObject({ environment_id: 'env-anything' });
    expect(r.logs.text()).toContain('catalogue unavailable');
  });
});

describe('Slack: channel defaults are checked when set', () => {
  it('config env=<name> stores the id; an unknown name is refused privately and nothing changes', async () => {
    const r = await relayWithCatalogue();
    await slash(r, 'config env=nowhere', 'UADMIN01');
    const refusal = await waitUntil(() => ephemerals(r).find((t) => /No environment/.test(t)), {
      timeoutMs: 8_000,
    });
    expect(refusal).toContain('`nowhere`');
    await slash(r, 'config env=pay model=sonnet', 'UADMIN01');
    const shown = await waitUntil(
      () =>
        r.slack
          .okCallsTo('chat.postEphemeral')
          .find((c) => /claude-4-6-sonnet/.test(JSON.stringify(c.params))),
      { timeoutMs: 8_000 },
    );
    expect(JSON.stringify(shown.params)).toContain('env-payments');
    await slash(r, 'fix the refund rounding');
    const run = await waitUntil(() => r.emulator.runs.all()[0], { timeoutMs: 8_000 });
    expect(run.agent_config).toMatchObject({
      environment_id: 'env-payments',
      model_id: 'claude-4-6-sonnet',
    });
    expect(publicPosts(r).join('\n')).not.toContain('nowhere');
  });

  it('a default whose environment is gone by the next run: refused privately, saying it is the default here', async () => {
    dir = mkdtempSync(join(tmpdir(), 'relay-catalogue-'));
    const databasePath = join(dir, 'relay.db');
    const first = await startRelay({ databasePath, env: ADMIN });
    try {
      first.emulator.catalogue.set(CATALOGUE);
      await slash(first, 'config env=payments', 'UADMIN01');
      await waitUntil(
        () =>
          first.slack
            .okCallsTo('chat.postEphemeral')
            .find((c) => JSON.stringify(c.params).includes('env-payments')),
        { timeoutMs: 8_000 },
      );
    } finally {
      await first.close();
    }
    // The next process talks to a service where that environment no longer exists.
    const r = await start({ databasePath, env: ADMIN });
    r.emulator.catalogue.set({ ...CATALOGUE, environments: CATALOGUE.environments.slice(0, 2) });
    const reply = await refusedPrivately(r, 'fix the refund rounding', /No environment/);
    expect(reply).toContain('`env-payments` (the default here)');
    expect(reply).toContain('config env=');
  });
});

let n = 0;
function comment(text: string, repo = 'octo-org/widgets'): { body: string; deliveryId: string } {
  const payload = JSON.parse(fixtureText('issue-comment-created')) as Payload;
  n += 1;
  payload.comment.id = 700_000 + n;
  payload.comment.body = text;
  const [owner, name] = repo.split('/');
  (payload.repository as Record<string, unknown>).full_name = repo;
  (payload.repository as Record<string, unknown>).name = name;
  ((payload.repository as Record<string, unknown>).owner as Record<string, unknown>).login = owner;
  return { body: JSON.stringify(payload), deliveryId: `catalogue-${n}-${Date.now()}` };
}

async function sendComment(r: Relay, text: string): Promise<void> {
  const c = comment(text);
  const res = await r.postGitHub(c.body, { event: 'issue_comment', deliveryId: c.deliveryId });
  expect([200, 202]).toContain(res.status);
  await res.arrayBuffer();
}

const commentBodies = (r: Relay) => [...r.github.comments.values()].map((c) => c.body);

describe('GitHub: names and the repository environment', () => {
  it('an unknown model: one reply to the person, no status comment, no 👀, no run', async () => {
    const r = await relayWithCatalogue();
    await sendComment(r, '@agent-relay model=gtp fix the flaky test');
    const reply = await waitUntil(() => commentBodies(r).find((b) => /No model/.test(b)), {
      timeoutMs: 8_000,
    });
    expect(reply).toContain('@alice');
    expect(reply).toContain('GPT-5.4 (gpt-5-4-high)');
    await settle();
    expect(commentBodies(r)).toHaveLength(1);
    expect(r.github.reactions).toEqual([]);
    expect(creates(r)).toBe(0);
  });

  it('one environment holds the repository: it is used, and the status comment says why', async () => {
    const r = await relayWithCatalogue();
    r.emulator.catalogue.set({
      environments: [
        ...CATALOGUE.environments,
        { uid: 'env-widgets', name: 'Widgets', repos: ['acme/web', 'Octo-Org/Widgets'] },
      ],
    });
    await sendComment(r, '@agent-relay fix the flaky test');
    const run = await waitUntil(() => r.emulator.runs.all()[0], { timeoutMs: 8_000 });
    expect(run.agent_config).toMatchObject({ environment_id: 'env-widgets' });
    const status = await waitUntil(() => commentBodies(r).find((b) => b.includes('env-widgets')), {
      timeoutMs: 8_000,
    });
    expect(status).toContain("this repository's environment");
  });

  it('several environments hold it: none is guessed, and the choice is mentioned', async () => {
    const r = await relayWithCatalogue();
    r.emulator.catalogue.set({
      environments: [
        { uid: 'env-w1', name: 'Widgets One', repos: ['octo-org/widgets'] },
        { uid: 'env-w2', name: 'Widgets Two', repos: ['octo-org/widgets'] },
      ],
    });
    await sendComment(r, '@agent-relay fix the flaky test');
    const run = await waitUntil(() => r.emulator.runs.all()[0], { timeoutMs: 8_000 });
    expect(run.agent_config?.environment_id).toBeUndefined();
    const status = await waitUntil(
      () => commentBodies(r).find((b) => b.includes('several environments')),
      { timeoutMs: 8_000 },
    );
    expect(status).toContain('Widgets One (env-w1)');
    expect(status).toContain('Widgets Two (env-w2)');
  });

  it('a repository default wins over the proposal', async () => {
    const r = await relayWithCatalogue();
    r.emulator.catalogue.set({
      environments: [
        ...CATALOGUE.environments,
        { uid: 'env-widgets', name: 'Widgets', repos: ['octo-org/widgets'] },
      ],
    });
    await sendComment(r, '@agent-relay config env=payments');
    await waitUntil(() => commentBodies(r).find((b) => b.includes('env-payments')), {
      timeoutMs: 8_000,
    });
    await sendComment(r, '@agent-relay fix the flaky test');
    const run = await waitUntil(() => r.emulator.runs.all()[0], { timeoutMs: 8_000 });
    expect(run.agent_config).toMatchObject({ environment_id: 'env-payments' });
  });
});
