/**
 * Factory dispatch as the published description has it: the ticket reference is
 * `<source>:<id>` (the emulator refuses anything else, as the service does), and the factory
 * list is cursor-paginated, so an alias on a later page still resolves.
 */
import { describe, expect, it } from 'vitest';
import { flushOutbox, githubComment, handle, slackMention, startTestEnv } from '../fixtures.js';
import { worldPerTest } from '../../helpers/world-per-test.js';

const startEnv = worldPerTest(startTestEnv);

describe('factory dispatch', () => {
  it('a GitHub issue is the ticket github:owner/repo#N; a Slack message names none', async () => {
    const env = await startEnv({
      emulator: { factories: [{ uid: 'f-docs', name: 'Docs Factory', alias: 'docs' }] },
    });
    await handle(
      env,
      githubComment({ kind: 'label', text: 'fix it', addressed: true, factoryAlias: 'docs' }),
    );
    await handle(env, slackMention({ text: 'factory docs write the FAQ' }));
    const runs = env.emulator.runs.all();
    expect(runs).toHaveLength(2);
    const fromGithub = runs.find((r) => r.metadata?.ticket_source === 'github');
    expect(fromGithub?.metadata).toMatchObject({
      ticket_source: 'github',
      ticket_id: 'octo/widgets#7',
    });
    // The Slack dispatch sent no reference: the service minted an ad-hoc one.
    const fromSlack = runs.find((r) => r !== fromGithub);
    expect(fromSlack?.metadata?.ticket_source).toBe('adhoc');
  });

  it('reads every page of the factory search to find the alias', async () => {
    const many = Array.from({ length: 25 }, (_, i) => ({
      uid: `f-${i}`,
      name: `Docs crew ${i}`,
      alias: `docs-${i}`,
    }));
    const env = await startEnv({
      emulator: { factories: [...many, { uid: 'f-last', name: 'Docs Factory', alias: 'docs' }] },
    });
    await handle(env, slackMention({ text: 'factory docs write the FAQ' }));
    await flushOutbox(env);
    const runs = env.emulator.runs.all();
    expect(runs).toHaveLength(1);
    expect(runs[0]!.agent_config).toMatchObject({ name: 'Docs Factory' });
    expect(env.emulator.requests.get('GET /factory')).toBe(2);
  });
});
