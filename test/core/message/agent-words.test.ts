/**
 * The agent's steps and words as people see them (pure): which steps show and in which state,
 * which text is the final message, and its Markdown re-written for Slack and GitHub so that
 * nothing the agent writes can ping anyone or become markup the platform acts on.
 */
import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../../src/core/conversation.js';
import {
  finalAgentMessage,
  progressFromConversation,
  progressFromTimeline,
} from '../../../src/core/message/progress.js';
import { agentMarkdown } from '../../../src/github/render/agent-words.js';
import { agentMrkdwn } from '../../../src/slack/render/agent-words.js';

const action = (id: string, name: string, input: Record<string, unknown> = {}) => ({
  role: 'assistant',
  content: [{ type: 'action', id, category: 'command', name, input }],
});
const result = (id: string, state: string) => ({
  role: 'tool',
  content: [
    { type: 'action_result', action_id: id, category: 'command', name: 'x', state, output: {} },
  ],
});
const say = (role: string, text: string) => ({ role, content: [{ type: 'text', text }] });

const conversation: Conversation = {
  conversation_id: 'c1',
  steps: [
    {
      id: 's1',
      messages: [
        say('user', 'first request'),
        action('a0', 'old_step'),
        say('assistant', 'Old answer'),
      ],
      steps: [],
    },
    {
      id: 's2',
      messages: [
        say('user', 'the follow-up'),
        action('a1', 'read_files', { paths: ['a.ts', 'b.ts'] }),
      ],
      steps: [
        {
          id: 's2.1',
          description: 'delegated',
          messages: [
            result('a1', 'completed'),
            action('a2', 'run_command', { command: 'npm test' }),
            result('a2', 'denied'),
            action('a3', 'future_thing', { unknown: 1 }),
            {
              role: 'assistant',
              content: [{ type: 'hologram' }, { type: 'text', text: 'New answer' }],
            },
          ],
          steps: [],
        },
      ],
    },
  ],
};

describe('the steps shown while a run works', () => {
  it('the current request’s last steps, nested ones in place, with their states', () => {
    expect(progressFromConversation(conversation)).toEqual({
      kind: 'steps',
      steps: [
        {
          title: 'Read files: a.ts, b.ts',
          state: 'done',
          id: 'a1',
          action: 'Read files',
          parameter: 'a.ts, b.ts',
        },
        {
          title: 'Run command: npm test',
          state: 'failed',
          id: 'a2',
          action: 'Run command',
          parameter: 'npm test',
        },
        { title: 'Future thing', state: 'running', id: 'a3', action: 'Future thing' },
      ],
    });
    expect(progressFromConversation(conversation, 1)).toEqual({
      kind: 'steps',
      steps: [{ title: 'Future thing', state: 'running', id: 'a3', action: 'Future thing' }],
    });
  });

  it('nothing before the agent did anything for the current request', () => {
    const quiet: Conversation = {
      conversation_id: 'c',
      steps: [{ id: 's', messages: [say('user', 'hi')], steps: [] }],
    };
    expect(progressFromConversation(quiet)).toBeUndefined();
    expect(finalAgentMessage(quiet)).toBeUndefined();
  });

  it('set-up events of the current execution only, in words, once each', () => {
    const at = '2030-01-01T00:00:00Z';
    const ev = (event_type: string) => ({
      event_uuid: event_type,
      run_id: 'r',
      event_type,
      occurred_at: at,
    });
    expect(
      progressFromTimeline({
        events: [
          ev('oz_run_created'),
          ev('oz_run_claimed'),
          ev('agent_started'),
          ev('oz_run_done'),
          ev('oz_run_claimed'),
          ev('worker_container_ready'),
          ev('a_future_event'),
        ],
      }),
    ).toEqual({ kind: 'setup', events: ['machine assigned', 'environment ready'] });
    expect(progressFromTimeline({ events: [ev('oz_run_created')] })).toBeUndefined();
  });

  it('the final message is the last assistant text since the latest request', () => {
    expect(finalAgentMessage(conversation)).toBe('New answer');
    const long = {
      conversation_id: 'c',
      steps: [{ id: 's', messages: [say('assistant', 'x'.repeat(9_000))], steps: [] }],
    };
    expect(finalAgentMessage(long)?.length).toBe(2_500);
  });

  it("a waiting run's words count only when nothing followed them", () => {
    const waits = (...messages: Conversation['steps'][number]['messages']): Conversation => ({
      conversation_id: 'c',
      steps: [{ id: 's', messages: [say('user', 'go'), ...messages], steps: [] }],
    });
    const last = { lastThing: true };
    // Its question, asked last: the words.
    expect(finalAgentMessage(waits(action('a1', 'read'), say('assistant', 'Keep it?')), last)).toBe(
      'Keep it?',
    );
    // Words, then the action it waits to have approved: not its question.
    const approval = waits(say('assistant', 'I will now delete the branch.'), action('a2', 'git'));
    expect(finalAgentMessage(approval, last)).toBeUndefined();
    expect(finalAgentMessage(approval)).toBe('I will now delete the branch.');
    // Text and action in one message, action last; an action's result after the words.
    const inOne = waits({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Running it.' },
        { type: 'action', id: 'a3', name: 'x' },
      ],
    });
    expect(finalAgentMessage(inOne, last)).toBeUndefined();
    expect(
      finalAgentMessage(waits(say('assistant', 'Done?'), result('a4', 'running')), last),
    ).toBeUndefined();
    // Only the text after the message's last action.
    const after = waits({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Before.' },
        { type: 'action', id: 'a5', name: 'x' },
        { type: 'text', text: 'Approve the push?' },
      ],
    });
    expect(finalAgentMessage(after, last)).toBe('Approve the push?');
  });
});

describe("the agent's Markdown on each platform", () => {
  const cases: { md: string; slack: string; github: string }[] = [
    {
      md: 'Done. I changed **src/index.ts**.',
      slack: 'Done. I changed *src/index.ts*.',
      github: 'Done. I changed **src/index.ts**.',
    },
    {
      md: '- `npm test` passes\n- _no_ API change',
      slack: '• `npm test` passes\n• _no_ API change',
      github: '- `npm test` passes\n- _no_ API change',
    },
    {
      md: 'See [the PR](https://github.com/o/r/pull/1)',
      slack: 'See <https://github.com/o/r/pull/1|the PR>',
      github: 'See [the PR](https://github.com/o/r/pull/1)',
    },
    { md: '# Summary', slack: '*Summary*', github: '**Summary**' },
  ];
  it.each(cases)('$md', ({ md, slack, github }) => {
    expect(agentMrkdwn(md)).toBe(slack);
    expect(agentMarkdown(md)).toBe(github);
  });

  it('cannot ping anyone, inject HTML or sneak in a link', () => {
    const hostile =
      'Hi <!channel> <@U123> @octo-org/team <script>x</script> [x](javascript:alert(1))';
    const slack = agentMrkdwn(hostile);
    expect(slack).not.toMatch(/<!channel>|<@U123>|<script>/);
    expect(slack).toContain('&lt;!channel&gt;');
    const github = agentMarkdown(hostile);
    expect(github).not.toMatch(/<script>|\]\(javascript:/);
    expect(github).toContain('@\u200bocto-org/team');
  });

  it('is bounded', () => {
    expect(agentMrkdwn('word '.repeat(2_000)).length).toBeLessThanOrEqual(2_800);
  });
});
