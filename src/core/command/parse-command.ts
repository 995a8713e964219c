/**
 * The command parser (docs/architecture.md, "Command grammar"): a pure function from the text of a
 * trigger to ignore | reply (help or an error showing the right form) | command. The same
 * grammar serves Slack and GitHub. It never throws.
 */
import type { Command, ParseErrorCode, ParseResult, RunOptions } from './command.js';
import { findAddressedWords } from './find-mention.js';
import type { UsageTopic } from './help-text.js';
import { OPTION_KEYS, OPTIONS_FORM, usageFor } from './help-text.js';
import { parseConfigArgs, parseListArgs, parseRunIdArgs } from './parse-arguments.js';
import type { OptionError } from './parse-options.js';
import { readLeadingOptions } from './parse-options.js';
import { unwrapQuoted } from './read-token.js';
import { escapeRegExp } from '../text.js';
import type { Platform } from '../trigger.js';

export type { Command, ParseErrorCode, ParseResult, RunOptions } from './command.js';

/** The GitHub login that is mentioned when GITHUB_BOT_HANDLE is not set. */
export const DEFAULT_BOT_HANDLE = 'agent-relay';
export const DEFAULT_COMMAND_WORD = '/agent';
export const DEFAULT_MAX_PROMPT_CHARS = 32_000;

export interface ParseCommandInput {
  text: string;
  /** True when the ingress knows the bot is addressed and `text` is just the words. */
  addressed: boolean;
  /** The words are a fresh run's prompt, never a command (`Trigger.freshRun`). */
  freshRun?: boolean;
  platform: Platform;
  /** GitHub login without '@', e.g. `agent-relay`. */
  botHandle: string;
  /** Default `/agent`. */
  commandWord?: string;
  /** Default 32 000. */
  maxPromptChars?: number;
}

interface Context {
  invocation: string;
  maxPromptChars: number;
}

const HELP_WORDS = new Set(['help', '?', '--help', '-h']);
const FACTORY_ALIAS = /^@?([A-Za-z0-9][A-Za-z0-9._-]{0,127})$/;
const OPTION_CODES: ReadonlySet<ParseErrorCode> = new Set<ParseErrorCode>([
  'unknown_option',
  'invalid_option_value',
  'duplicate_option',
  'unbalanced_quote',
  'unbalanced_bracket',
  'malformed_options',
]);
const help: ParseResult = { kind: 'reply', reply: { type: 'help' } };

function fail(ctx: Context, topic: UsageTopic, error: Omit<OptionError, 'ok'>): ParseResult {
  const usage = OPTION_CODES.has(error.code)
    ? `${usageFor(topic, ctx.invocation)}\noptions: ${OPTIONS_FORM}`
    : usageFor(topic, ctx.invocation);
  return {
    kind: 'reply',
    reply: { type: 'error', code: error.code, message: error.message, usage },
  };
}

function command(c: Command): ParseResult {
  return { kind: 'command', command: c };
}

/** Drop one leading Slack user mention (`<@U123>`, `<@U123|name>`) and any `@<botHandle>`. */
function stripLeadingMention(words: string, botHandle: string): string {
  const sep = '[\\s,:;]*';
  let out = words.replace(new RegExp(`^\\s*<@[A-Za-z0-9]+(?:\\|[^>]{0,100})?>${sep}`), '');
  const handle = escapeRegExp(botHandle);
  if (handle !== '') {
    out = out.replace(
      new RegExp(`^\\s*(?:@${handle}(?:\\[bot\\])?(?![A-Za-z0-9_/-])${sep})+`, 'i'),
      '',
    );
  }
  return out.trim();
}

/** Leading options, then the prompt (unwrapped when it is wholly quoted). */
function readPrompt(
  ctx: Context,
  topic: UsageTopic,
  text: string,
  allowFactoryOption: boolean,
): { prompt: string; options: RunOptions } | ParseResult {
  const allowed = allowFactoryOption ? OPTION_KEYS : OPTION_KEYS.filter((k) => k !== 'factory');
  const read = readLeadingOptions(text, allowed);
  if (!read.ok) return fail(ctx, topic, read);
  const prompt = unwrapQuoted(read.rest);
  if (prompt === '')
    return fail(ctx, topic, { code: 'empty_prompt', message: 'the prompt is empty' });
  if (prompt.length > ctx.maxPromptChars) {
    return fail(ctx, topic, {
      code: 'prompt_too_long',
      message: `the prompt is too long: ${prompt.length} characters, the limit is ${ctx.maxPromptChars}`,
    });
  }
  return { prompt, options: read.options };
}

function factoryCommand(ctx: Context, alias: string, rest: string): ParseResult {
  const read = readPrompt(ctx, 'factory', rest, false);
  if ('kind' in read) return read;
  return command({ type: 'factory', alias, ...read });
}

/** A fresh run with these words (options first, then the prompt). */
function freshRun(ctx: Context, words: string): ParseResult {
  const read = readPrompt(ctx, 'new', words, true);
  return 'kind' in read ? read : command({ type: 'run', ...read, fresh: true });
}

/** `now <prompt>`: a prompt whose run starts the work at once (mode normal), no plan first. */
function nowRun(ctx: Context, words: string): ParseResult {
  const read = readPrompt(ctx, 'now', words, true);
  if ('kind' in read) return read;
  return command({
    type: 'run',
    prompt: read.prompt,
    options: { ...read.options, mode: read.options.mode ?? 'normal' },
    fresh: false,
    now: true,
  });
}

/** A run id alone (`approve`, `continue`), or undefined when the words are more than that. */
function loneRunId(rest: string): { runId?: string } | undefined {
  const line = rest.split(/\r\n|\r|\n/, 1)[0] ?? '';
  if (rest.slice(line.length).trim() !== '') return undefined;
  const words = line.trim().split(/\s+/).filter(Boolean);
  if (words.length > 1) return undefined;
  const runId = words[0]?.replace(/^[`<]+|[`>]+$/g, '');
  return runId ? { runId } : {};
}

function parseWords(ctx: Context, words: string): ParseResult {
  const first = /^\S+/.exec(words)?.[0] ?? '';
  const rest = words.slice(first.length);
  const keyword = first.toLowerCase();
  if (HELP_WORDS.has(keyword)) return help;
  switch (keyword) {
    case 'new':
      return freshRun(ctx, rest);
    case 'now':
      return nowRun(ctx, rest);
    case 'approve':
    case 'continue': {
      // `approve the migration plan` is a prompt: only a run id (or nothing) follows these.
      const target = loneRunId(rest);
      if (target !== undefined) return command({ type: keyword, ...target });
      break;
    }
    case 'changes': {
      const text = rest.trim();
      if (text === '')
        return fail(ctx, 'changes', {
          code: 'empty_prompt',
          message: 'say what to change: changes <what to change>',
        });
      return command({ type: 'changes', text, words });
    }
    case 'status':
    case 'cancel':
    case 'stop':
    case 'list':
    case 'config': {
      // Arguments end with the line: later lines (a sign-off, an explanation) are not arguments.
      const args = rest.split(/\r\n|\r|\n/, 1)[0] ?? '';
      const parsed =
        keyword === 'list'
          ? parseListArgs(args)
          : keyword === 'config'
            ? parseConfigArgs(args)
            : parseRunIdArgs(keyword, args);
      return parsed.ok ? command(parsed.command) : fail(ctx, keyword, parsed);
    }
    case 'factory': {
      const aliasWord = /^\s*(\S+)/.exec(rest);
      const alias = FACTORY_ALIAS.exec(aliasWord?.[1] ?? '')?.[1];
      if (alias === undefined || aliasWord === null) {
        return fail(ctx, 'factory', {
          code: 'missing_factory_alias',
          message: 'name the factory: factory <alias> <prompt>',
        });
      }
      return factoryCommand(ctx, alias, rest.slice(aliasWord[0].length));
    }
  }
  const atAlias = first.startsWith('@') ? FACTORY_ALIAS.exec(first)?.[1] : undefined;
  if (atAlias !== undefined) return factoryCommand(ctx, atAlias, rest);
  const read = readPrompt(ctx, 'prompt', words, true);
  return 'kind' in read ? read : command({ type: 'run', ...read, fresh: false });
}

export function parseCommand(input: ParseCommandInput): ParseResult {
  const commandWord = input.commandWord ?? DEFAULT_COMMAND_WORD;
  const botHandle = input.botHandle.trim().replace(/^@/, '');
  const ctx: Context = {
    invocation: input.platform === 'slack' || botHandle === '' ? commandWord : `@${botHandle}`,
    maxPromptChars: input.maxPromptChars ?? DEFAULT_MAX_PROMPT_CHARS,
  };
  if (input.freshRun) return freshRun(ctx, input.text);
  let words = input.text;
  if (!input.addressed) {
    const found = findAddressedWords(input.text, botHandle, commandWord);
    if (found === undefined) return { kind: 'ignore', reason: 'not_addressed' };
    if (found.words === '' && !found.explicit) {
      return { kind: 'ignore', reason: 'mention_without_words' };
    }
    words = found.words;
  }
  words = stripLeadingMention(words, botHandle);
  if (words === '') return help;
  return parseWords(ctx, words);
}
