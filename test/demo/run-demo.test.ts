import { describe, expect, it } from 'vitest';
import { runDemo } from '../../src/demo/run-demo.js';

describe('npm run demo', () => {
  it('plays the whole conversation through the real endpoints and shows every thread', async () => {
    const lines: string[] = [];
    const result = await runDemo({ fast: true, out: (line) => lines.push(line) });
    const output = lines.join('\n');

    // Eight runs: slash command, cancelled run, GitHub mention, GitHub label, factory dispatch,
    // Linear delegation, Jira label, Teams mention.
    const byPrompt = (text: string) => result.runs.find((r) => r.prompt.includes(text));
    expect(result.runs).toHaveLength(8);
    expect(byPrompt('nightly export')?.state).toBe('SUCCEEDED');
    expect(byPrompt('work offline')?.state).toBe('SUCCEEDED');
    expect(result.linearActivities[0]).toBe('thought: Starting a cloud agent run…');
    expect(result.linearActivities.join('\n')).toMatch(
      /response: Done: \*\*ENG-1: Make the export/,
    );
    expect(result.linearActivities.at(-1)).toContain('"In Progress"');
    expect(result.jiraComments[0]).toMatch(
      /^comment \(edited \d+×\): ✅ agent-relay finished: PROJ-1/,
    );
    expect(result.jiraComments[1]).toMatch(/^comment: @Alice Admin ✅ Run succeeded/);
    expect(result.jiraComments.at(-1)).toBe('issue PROJ-1 is now "In Progress"');
    expect(byPrompt('health check to the sync worker')?.state).toBe('SUCCEEDED');
    expect(result.teamsActivities).toHaveLength(2);
    expect(result.teamsActivities[0]).toMatch(
      /^card \(edited \d+×\): ✅ \*\*agent-relay\*\* finished: \*\*add a health check/,
    );
    expect(result.teamsActivities[1]).toMatch(/^reply: <at>Alice Park<\/at> ✅ Run succeeded/);
    expect(byPrompt('fix the flaky login test')?.state).toBe('SUCCEEDED');
    expect(byPrompt('redesign the settings page')?.state).toBe('CANCELLED');
    expect(byPrompt('center the button')?.state).toBe('SUCCEEDED');
    expect(byPrompt('lodash')?.state).toBe('SUCCEEDED');
    expect(byPrompt('release notes')?.state).toBe('SUCCEEDED');
    // The follow-up went to the first run.
    expect(result.followups).toEqual([
      {
        runId: byPrompt('fix the flaky login test')!.run_id,
        message: expect.stringContaining('regression test') as unknown as string,
      },
    ]);

    expect(result.slackThreads.map((t) => t.label)).toEqual([
      '#eng thread 1',
      '#design thread 2',
      '#product thread 3',
    ]);
    const [eng, design, product] = result.slackThreads.map((t) => t.lines.join('\n'));
    expect(eng).toMatch(/agent-relay \(edited \d+×\): ✅ fix the flaky login test on Safari/);
    expect(eng).toContain('Alice: Also add a regression test');
    expect(design).toMatch(/🚫 redesign the settings page \[slow\]/);
    expect(design).toMatch(/Cancelled/);
    expect(product).toContain('Erin: @agent-relay factory docs write the release notes');
    expect(product).toMatch(/factory `docs`/);

    expect(result.githubThreads.map((t) => t.label)).toEqual(['acme/webapp#7', 'acme/webapp#12']);
    for (const thread of result.githubThreads) {
      const bot = thread.lines.filter((l) => l.startsWith('agent-relay[bot]'));
      expect(bot.length, thread.label).toBeGreaterThanOrEqual(2);
      expect(thread.lines.join('\n')).toContain('Succeeded');
    }

    for (const scene of [
      'Slack: a slash command',
      'Slack: a follow-up in the thread',
      'Slack: cancel a run',
      'GitHub: a mention in an issue comment',
      'GitHub: a label',
      'Slack: hand work to a factory',
      'Linear: delegate an issue',
      'What each conversation shows now',
    ]) {
      expect(output).toContain(scene);
    }
    expect(output).not.toMatch(
      /demo-signing-secret|demo-webhook-secret|xoxb-demo-token|ghp_demo_token|demo-linear-webhook/,
    );
  });
});
