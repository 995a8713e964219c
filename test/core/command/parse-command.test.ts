import { describe, expect, it } from 'vitest';
import type {
  Command,
  ParseErrorCode,
  ParseResult,
  RunOptions,
} from '../../../src/core/command/command.js';
import { parseCommand } from '../../../src/core/command/parse-command.js';
import type { ParseCommandInput } from '../../../src/core/command/parse-command.js';

const run = (prompt: string, options: RunOptions = {}, fresh = false): Command => ({
  type: 'run',
  prompt,
  options,
  fresh,
});
const factory = (alias: string, prompt: string, options: RunOptions = {}): Command => ({
  type: 'factory',
  alias,
  prompt,
  options,
});
const help = { help: true } as const;
const ignore = (reason: string) => ({ ignore: reason }) as const;
const error = (code: ParseErrorCode, messageIncludes?: string) => ({
  error: code,
  messageIncludes,
});
type Expected = Command | typeof help | ReturnType<typeof ignore> | ReturnType<typeof error>;

function check(result: ParseResult, expected: Expected): void {
  if ('help' in expected) {
    expect(result).toEqual({ kind: 'reply', reply: { type: 'help' } });
  } else if ('ignore' in expected) {
    expect(result).toEqual({ kind: 'ignore', reason: expected.ignore });
  } else if ('error' in expected) {
    expect(result.kind).toBe('reply');
    if (result.kind !== 'reply' || result.reply.type !== 'error') throw new Error('not an error');
    expect(result.reply.code).toBe(expected.error);
    expect(result.reply.message.length).toBeGreaterThan(0);
    expect(result.reply.usage.length).toBeGreaterThan(0);
    if (expected.messageIncludes) expect(result.reply.message).toContain(expected.messageIncludes);
  } else {
    expect(result).toEqual({ kind: 'command', command: expected });
  }
}

/** Words already addressed to the bot (slash command, DM, Slack mention): both platforms. */
const addressedRows: [string, Expected][] = [
  // prompts
  ['fix the build', run('fix the build')],
  ['  fix the build \n', run('fix the build')],
  ['fix this\n\n```\nconst x = 1;\n```', run('fix this\n\n```\nconst x = 1;\n```')],
  ['<@U123> fix it', run('fix it')],
  ['<@U123|agent> fix it', run('fix it')],
  ['<@W0ABC>: fix it', run('fix it')],
  ['@agent-relay fix it', run('fix it')],
  ['fix <@U999> bug', run('fix <@U999> bug')],
  ['news about the outage', run('news about the outage')],
  ['statuses are wrong', run('statuses are wrong')],
  ['fix a=b in parser', run('fix a=b in parser')],
  ['[WIP] fix it', run('[WIP] fix it')],
  ['[] fix', run('[] fix')],
  ['https://example.com/?a=b is broken', run('https://example.com/?a=b is broken')],
  ['"x=1 is wrong in foo.ts"', run('x=1 is wrong in foo.ts')],
  ['"status of the build is red"', run('status of the build is red')],
  ['“new tests please”', run('new tests please')],
  ['"a" and "b"', run('"a" and "b"')],
  ["'tis a bug", run("'tis a bug")],
  // options
  ['model=gpt-5 fix it', run('fix it', { model: 'gpt-5' })],
  ['Model=gpt-5 MODE=Plan fix', run('fix', { model: 'gpt-5', mode: 'plan' })],
  ['mode=normal go', run('go', { mode: 'normal' })],
  ['mode=orchestrate go', run('go', { mode: 'orchestrate' })],
  ['[mode=Orchestrate] go', run('go', { mode: 'orchestrate' })],
  ['[model=x, env=e1] fix', run('fix', { model: 'x', env: 'e1' })],
  ['[ model=x , env=e1 ] fix', run('fix', { model: 'x', env: 'e1' })],
  ['[model=x env=e1]fix', run('fix', { model: 'x', env: 'e1' })],
  ['title="Fix the build" go', run('go', { title: 'Fix the build' })],
  ["title='Fix it' go", run('go', { title: 'Fix it' })],
  ['title=“Fix it” go', run('go', { title: 'Fix it' })],
  ["title=don't go", run('go', { title: "don't" })],
  ['[name="a, b", title="x]y"] go', run('go', { name: 'a, b', title: 'x]y' })],
  ['name="  my   agent " go', run('go', { name: 'my agent' })],
  ['skill=octo/tools:lint go', run('go', { skill: 'octo/tools:lint' })],
  [
    'skill=octo/tools:skills/lint/SKILL.md go',
    run('go', { skill: 'octo/tools:skills/lint/SKILL.md' }),
  ],
  ['factory=@frontend go', run('go', { factory: 'frontend' })],
  ['model=x\nfix it\nplease', run('fix it\nplease', { model: 'x' })],
  ['model=x "status of build"', run('status of build', { model: 'x' })],
  ['model=x status', run('status', { model: 'x' })],
  ['env=e1 fix a=b', run('fix a=b', { env: 'e1' })],
  // new
  ['new fix it', run('fix it', {}, true)],
  ['NEW model=x fix', run('fix', { model: 'x' }, true)],
  ['new [mode=plan] "cancel the old plan"', run('cancel the old plan', { mode: 'plan' }, true)],
  ['new mode=orchestrate go', run('go', { mode: 'orchestrate' }, true)],
  ['new', error('empty_prompt')],
  ['new model=x', error('empty_prompt')],
  ['new ""', error('empty_prompt')],
  // status / cancel
  ['status', { type: 'status' }],
  ['Status run_123', { type: 'status', runId: 'run_123' }],
  ['status `run_123`', { type: 'status', runId: 'run_123' }],
  ['status\n\nthanks!', { type: 'status' }],
  ['status a b', error('bad_arguments', 'quote it')],
  ['cancel', { type: 'cancel' }],
  ['CANCEL r-1', { type: 'cancel', runId: 'r-1' }],
  ['cancel the run please', error('bad_arguments')],
  // stop: the current turn only; the same one-run-id form as cancel
  ['stop', { type: 'stop' }],
  ['Stop `r-2`', { type: 'stop', runId: 'r-2' }],
  ['stop now please', error('bad_arguments', 'quote it')],
  ['"stop the build when it is red"', run('stop the build when it is red')],
  // list
  ['list', { type: 'list', mine: false }],
  ['list mine', { type: 'list', mine: true }],
  [
    'list MINE state=queued,InProgress',
    { type: 'list', mine: true, state: ['QUEUED', 'INPROGRESS'] },
  ],
  [
    'list state=QUEUED state=FAILED,queued',
    { type: 'list', mine: false, state: ['QUEUED', 'FAILED'] },
  ],
  ['list name="my agent"', { type: 'list', mine: false, name: 'my agent' }],
  [
    'list [state=blocked, name=x] mine',
    { type: 'list', mine: true, state: ['BLOCKED'], name: 'x' },
  ],
  ['list state=running', error('unknown_state', 'INPROGRESS')],
  ['list state=', error('unknown_state')],
  ['list foo', error('bad_arguments')],
  ['list model=x', error('bad_arguments')],
  ['list name="x', error('unbalanced_quote')],
  // config
  ['config', { type: 'config', set: {}, unset: [] }],
  ['config model=x env=e1', { type: 'config', set: { model: 'x', env: 'e1' }, unset: [] }],
  ['config model= env=-', { type: 'config', set: {}, unset: ['model', 'env'] }],
  // Quoted, "-" is a name like any other (found by the round-trip fuzzer).
  ['config name="-" env=-', { type: 'config', set: { name: '-' }, unset: ['env'] }],
  ['config [model=x, mode=PLAN]', { type: 'config', set: { model: 'x', mode: 'plan' }, unset: [] }],
  ['config mode=orchestrate', { type: 'config', set: { mode: 'orchestrate' }, unset: [] }],
  [
    'config factory=@fe skill=o/r:s',
    { type: 'config', set: { factory: 'fe', skill: 'o/r:s' }, unset: [] },
  ],
  ['config title=x', error('bad_arguments', 'title')],
  ['config foo=1', error('unknown_option')],
  ['config foo=', error('unknown_option')],
  ['config model', error('bad_arguments')],
  ['config model=x model=y', error('duplicate_option')],
  ['config model=x model=', error('duplicate_option')],
  ['config model= model=x', error('duplicate_option')],
  ['config mode=fast', error('invalid_option_value', 'one of normal, plan, orchestrate')],
  // plan first and the spending cap
  ['approve', { type: 'approve' }],
  ['APPROVE run-123', { type: 'approve', runId: 'run-123' }],
  ['approve the migration plan', run('approve the migration plan')],
  ['continue', { type: 'continue' }],
  ['continue `run-9`', { type: 'continue', runId: 'run-9' }],
  ['continue with the docs', run('continue with the docs')],
  [
    'changes keep the old endpoint',
    { type: 'changes', text: 'keep the old endpoint', words: 'changes keep the old endpoint' },
  ],
  ['changes', error('empty_prompt', 'say what to change')],
  [
    'now fix the build',
    { type: 'run', prompt: 'fix the build', options: { mode: 'normal' }, fresh: false, now: true },
  ],
  [
    'now model=m-1 fix it',
    {
      type: 'run',
      prompt: 'fix it',
      options: { model: 'm-1', mode: 'normal' },
      fresh: false,
      now: true,
    },
  ],
  ['cap=5 fix it', run('fix it', { cap: '5' })],
  ['cap=$2.50 fix it', run('fix it', { cap: '2.5' })],
  ['cap=0 fix it', error('invalid_option_value', 'cap must be')],
  [
    'config cap=3 approve=admins',
    { type: 'config', set: { cap: '3', approve: 'admins' }, unset: [] },
  ],
  ['config approve=everyone', error('invalid_option_value', 'approve must be')],
  ['config budget=20', { type: 'config', set: { budget: '20' }, unset: [] }],
  ['config budget=$12.50', { type: 'config', set: { budget: '12.5' }, unset: [] }],
  ['config budget=0', { type: 'config', set: { budget: '0' }, unset: [] }],
  ['config budget=-', { type: 'config', set: {}, unset: ['budget'] }],
  ['config budget=ten', error('invalid_option_value', 'amount of US dollars')],
  ['config budget=-5', error('invalid_option_value', 'amount of US dollars')],
  ['config budget=1.005', error('invalid_option_value', 'amount of US dollars')],
  ['config budget=2000000', error('invalid_option_value', 'at most 1000000')],
  [
    'config user=<@U0BOB01> budget=20',
    { type: 'config', set: { budget: '20' }, unset: [], user: 'U0BOB01' },
  ],
  ['config user=@bob-gh budget=-', { type: 'config', set: {}, unset: ['budget'], user: 'bob-gh' }],
  ['config user=@bob model=x', error('bad_arguments', 'a person has only a budget')],
  ['config user=@bob', error('bad_arguments', 'a person has only a budget')],
  ['config user="two words" budget=5', error('invalid_option_value', 'one person')],
  // A budget is a setting of the place, never an option of one run.
  ['budget=5 fix it', error('unknown_option')],
  // help
  ['', help],
  ['   ', help],
  ['<@U1>', help],
  ['help', help],
  ['HELP', help],
  ['?', help],
  ['--help', help],
  ['help me write tests', help],
  // factory
  ['factory frontend build it', factory('frontend', 'build it')],
  ['Factory @frontend build it', factory('frontend', 'build it')],
  [
    'factory frontend title="T" build\nthe page',
    factory('frontend', 'build\nthe page', { title: 'T' }),
  ],
  ['factory', error('missing_factory_alias')],
  ['factory model=x go', error('missing_factory_alias')],
  ['factory frontend', error('empty_prompt')],
  ['factory fe factory=x go', error('unknown_option')],
  ['@frontend build the page', factory('frontend', 'build the page')],
  ['@frontend [model=x] go', factory('frontend', 'go', { model: 'x' })],
  ['@frontend mode=orchestrate go', factory('frontend', 'go', { mode: 'orchestrate' })],
  ['@frontend', error('empty_prompt')],
  ['@agent-relay @frontend go', factory('frontend', 'go')],
  ['@agent-relay @agent-relay status', { type: 'status' }],
  ['<@U1> @Agent-Relay[bot]: list', { type: 'list', mine: false }],
  ['<@U1> <@U2> fix', run('<@U2> fix')],
  ['@ look here', run('@ look here')],
  // option errors
  ['x=1 is wrong in foo.ts', error('unknown_option', '"x"')],
  ['mode=fast go', error('invalid_option_value', 'fast')],
  ['mode=orchestrated go', error('invalid_option_value', 'orchestrated')],
  ['skill=lint go', error('invalid_option_value', 'owner/repo:skill-name')],
  ['skill=o/r go', error('invalid_option_value')],
  ['skill=o/r:a/b go', error('invalid_option_value')],
  ['model= go', error('invalid_option_value', 'needs a value')],
  ['model="" go', error('invalid_option_value')],
  ['model="gpt 5" go', error('invalid_option_value')],
  ['title="Fix the build go', error('unbalanced_quote')],
  ['[model=x go', error('unbalanced_bracket')],
  ['[model=x, oops] go', error('malformed_options')],
  ['title="a"b go', error('malformed_options')],
  ['model=a model=b go', error('duplicate_option')],
  ['[model=a] model=b go', error('duplicate_option')],
  ['model=x', error('empty_prompt')],
];

describe('parseCommand: addressed words', () => {
  for (const platform of ['slack', 'github'] as const) {
    it.each(addressedRows)(`${platform}: %j`, (text, expected) => {
      check(parseCommand({ text, addressed: true, platform, botHandle: 'agent-relay' }), expected);
    });
  }
});

/** GitHub comments: the parser finds the address itself. */
const commentRows: [string, Expected][] = [
  ['@agent-relay fix the build', run('fix the build')],
  ['@Agent-Relay fix', run('fix')],
  ['Hey @agent-relay, please fix\nthe login\n\nthanks', run('please fix\nthe login\n\nthanks')],
  ['@agent-relay: status', { type: 'status' }],
  ['@agent-relay[bot] status', { type: 'status' }],
  ['(@agent-relay) fix', run('fix')],
  ['@agent-relay status\n\nThanks!', { type: 'status' }],
  ['@agent-relay fix\r\nmore', run('fix\nmore')],
  ['@agent-relay\nfix the\nlogin', run('fix the\nlogin')],
  ['@agent-relay', help],
  ['  @agent-relay  \n\n', help],
  ['@agent-relay!', help],
  ['thanks @agent-relay!', ignore('mention_without_words')],
  ['cc @agent-relay', ignore('mention_without_words')],
  ['intro\n\n@agent-relay', ignore('mention_without_words')],
  ['no mention here', ignore('not_addressed')],
  ['', ignore('not_addressed')],
  ['@agent-relay-x fix', ignore('not_addressed')],
  ['@agent-relayx fix', ignore('not_addressed')],
  ['@agent-relay_x fix', ignore('not_addressed')],
  ['me@agent-relay.com fix', ignore('not_addressed')],
  ['visit @agent-relay.com today', ignore('not_addressed')],
  ['@agent-relay/reviewers please look', ignore('not_addressed')],
  ['agent-relay fix', ignore('not_addressed')],
  // code and quotes
  ['```\n@agent-relay fix\n```', ignore('not_addressed')],
  ['~~~js\n@agent-relay fix\n~~~', ignore('not_addressed')],
  ['````\n```\n@agent-relay x\n```\n````', ignore('not_addressed')],
  ['```\n@agent-relay fix', ignore('not_addressed')],
  ['  ```sh\n@agent-relay fix\n  ```', ignore('not_addressed')],
  ['- item\n    ```\n    @agent-relay fix\n    ```', ignore('not_addressed')],
  ['- ```\n  @agent-relay fix\n  ```', ignore('not_addressed')],
  ['- > @agent-relay fix', ignore('not_addressed')],
  ['1. > @agent-relay fix', ignore('not_addressed')],
  ['- @agent-relay fix', run('fix')],
  ['```\ncode\n```\n@agent-relay fix it', run('fix it')],
  ['~~~\n```\n~~~\n@agent-relay fix it', run('fix it')],
  ['use `@agent-relay fix` to ask', ignore('not_addressed')],
  ['use ``a ` @agent-relay`` x', ignore('not_addressed')],
  ['use `a` then @agent-relay fix', run('fix')],
  ['> @agent-relay fix', ignore('not_addressed')],
  ['   > @agent-relay fix', ignore('not_addressed')],
  ['> quoted\n@agent-relay lazy', ignore('not_addressed')],
  ['> quoted\n\n@agent-relay fix', run('fix')],
  ['    @agent-relay fix', ignore('not_addressed')],
  ['\tcode @agent-relay fix', ignore('not_addressed')],
  ['intro\n    @agent-relay fix', run('fix')],
  ['intro\n\n    @agent-relay fix', ignore('not_addressed')],
  ['<!-- @agent-relay fix -->', ignore('not_addressed')],
  ['<!--\n@agent-relay fix\n-->\nreal text', ignore('not_addressed')],
  ['<!-- template --> @agent-relay fix', run('fix')],
  ['@agent-relay fix\n```\nstack @agent-relay\n```', run('fix\n```\nstack @agent-relay\n```')],
  // the command word
  ['/agent status', { type: 'status' }],
  ['LGTM\n/agent cancel', { type: 'cancel' }],
  ['/AGENT new fix it', run('fix it', {}, true)],
  ['/agent\nfix the thing', run('fix the thing')],
  ['/agent', help],
  ['Some text\n/agent', help],
  ['/agents fix', ignore('not_addressed')],
  ['run /agent fix', ignore('not_addressed')],
  ['```\n/agent fix\n```', ignore('not_addressed')],
  ['> /agent fix', ignore('not_addressed')],
  ['`code` /agent fix', ignore('not_addressed')],
  ['/agent fix\n@agent-relay other', run('fix\n@agent-relay other')],
  // factories and errors through a comment
  ['@agent-relay @frontend build it', factory('frontend', 'build it')],
  ['@agent-relay mode=fast go', error('invalid_option_value')],
  ['@agent-relay x=1 is wrong', error('unknown_option')],
];

describe('parseCommand: GitHub comments', () => {
  it.each(commentRows)('%j', (text, expected) => {
    check(
      parseCommand({ text, addressed: false, platform: 'github', botHandle: 'agent-relay' }),
      expected,
    );
  });
});

describe('parseCommand: settings', () => {
  const base: ParseCommandInput = {
    text: '',
    addressed: true,
    platform: 'slack',
    botHandle: 'agent-relay',
  };

  it('a fresh run takes its words as a prompt, whatever they start with, options first', () => {
    const fresh = { ...base, freshRun: true };
    check(
      parseCommand({ ...fresh, text: 'cancel the old export' }),
      run('cancel the old export', {}, true),
    );
    check(
      parseCommand({ ...fresh, text: 'status page is down' }),
      run('status page is down', {}, true),
    );
    check(
      parseCommand({ ...fresh, text: '[model=fast] help text is wrong' }),
      run('help text is wrong', { model: 'fast' }, true),
    );
    // Without the field the same words are commands.
    expect(parseCommand({ ...base, text: 'cancel the old export' })).not.toMatchObject({
      kind: 'command',
      command: { type: 'run' },
    });
  });

  it('uses a custom command word', () => {
    const input = { ...base, addressed: false, platform: 'github' as const, commandWord: '/bot' };
    check(parseCommand({ ...input, text: '/bot fix it' }), run('fix it'));
    check(parseCommand({ ...input, text: '/agent fix it' }), ignore('not_addressed'));
  });

  it('accepts a handle given with its @', () => {
    const input = { ...base, addressed: false, platform: 'github' as const, botHandle: '@relay' };
    check(parseCommand({ ...input, text: '@relay fix' }), run('fix'));
  });

  it('finds a Slack <@id> mention when not addressed, outside quotes', () => {
    const input = { ...base, addressed: false, botHandle: 'UBOT' };
    check(parseCommand({ ...input, text: '<@UBOT> fix it' }), run('fix it'));
    check(parseCommand({ ...input, text: 'hey <@UBOT|relay> status' }), { type: 'status' });
    check(parseCommand({ ...input, text: '&gt; <@UBOT> fix it' }), ignore('not_addressed'));
  });

  it('enforces the prompt limit, naming it', () => {
    const limited = { ...base, maxPromptChars: 10 };
    check(parseCommand({ ...limited, text: 'x'.repeat(10) }), run('x'.repeat(10)));
    check(parseCommand({ ...limited, text: 'x'.repeat(11) }), error('prompt_too_long', '10'));
    check(parseCommand({ ...base, text: 'y'.repeat(32_001) }), error('prompt_too_long', '32000'));
    check(parseCommand({ ...base, text: 'y'.repeat(32_000) }), run('y'.repeat(32_000)));
  });

  it.each([
    ['slack', 'mode=fast go', '/agent [options] <prompt>'],
    ['github', 'mode=fast go', '@agent-relay [options] <prompt>'],
    ['slack', 'status a b', '/agent status [run_id]'],
    ['github', 'list foo', '@agent-relay list '],
    ['slack', 'new', '/agent new '],
    ['slack', 'factory', '/agent factory <alias>'],
  ] as const)('%s error usage for %j shows %j', (platform, text, usage) => {
    const result = parseCommand({ ...base, platform, text });
    if (result.kind !== 'reply' || result.reply.type !== 'error')
      throw new Error('expected an error');
    expect(result.reply.usage.startsWith(usage)).toBe(true);
  });

  it('option errors also show how to write options', () => {
    const result = parseCommand({ ...base, text: 'x=1 wrong' });
    if (result.kind !== 'reply' || result.reply.type !== 'error')
      throw new Error('expected an error');
    expect(result.reply.usage).toContain('[key=value');
    const notOption = parseCommand({ ...base, text: 'status a b' });
    if (notOption.kind !== 'reply' || notOption.reply.type !== 'error')
      throw new Error('expected an error');
    expect(notOption.reply.usage).not.toContain('[key=value');
  });
});
