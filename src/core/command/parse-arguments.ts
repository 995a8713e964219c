/**
 * Arguments of the keyword commands: `status`/`cancel [run_id]`, `list [state=…] [name=…]
 * [mine]` and `config [key=value …]`. Each returns the command or an error without usage
 * (the caller adds the right form).
 */
import type { Command, RunOptions } from './command.js';
import type { OptionKey } from '../message/message-model.js';
import { OPTION_KEYS } from './help-text.js';
import { checkOptionValue, isOptionKey } from './option-values.js';
import type { OptionError } from './parse-options.js';
import { addOption, unknownOptionError } from './parse-options.js';
import type { PairToken } from './read-token.js';
import { readToken } from './read-token.js';
import { KNOWN_STATE_NAMES, isKnownState } from '../message/state-view.js';

type Parsed<C> = { ok: true; command: C } | OptionError;

function badArguments(message: string): OptionError {
  return { ok: false, code: 'bad_arguments', message };
}

/** `status` / `cancel` / `stop` take at most one run id (a token without spaces). */
export function parseRunIdArgs(
  type: 'status' | 'cancel' | 'stop',
  args: string,
): Parsed<Extract<Command, { type: 'status' | 'cancel' | 'stop' }>> {
  const words = args.trim().split(/\s+/).filter(Boolean);
  if (words.length > 1) {
    return badArguments(
      `${type} takes at most one run id. To send a prompt that starts with "${type}", quote it.`,
    );
  }
  const runId = words[0]?.replace(/^[`<]+|[`>]+$/g, '');
  return { ok: true, command: runId ? { type, runId } : { type } };
}

/** Visit every `key=value` (bare or in brackets) and `word` of an argument list. */
function eachArgument(
  args: string,
  onPair: (pair: PairToken) => OptionError | undefined,
  onWord: (word: string) => OptionError | undefined,
): OptionError | undefined {
  let i = 0;
  for (;;) {
    const token = readToken(args, i);
    if (token.kind === 'end') return undefined;
    if (token.kind === 'error') return { ok: false, code: token.code, message: token.message };
    const pairs = token.kind === 'pair' ? [token] : token.kind === 'group' ? token.pairs : [];
    for (const pair of pairs) {
      const error = onPair(pair);
      if (error) return error;
    }
    if (token.kind === 'word') {
      const error = onWord(token.text);
      if (error) return error;
    }
    i = token.end;
  }
}

export function parseListArgs(args: string): Parsed<Extract<Command, { type: 'list' }>> {
  const command: Extract<Command, { type: 'list' }> = { type: 'list', mine: false };
  const error = eachArgument(
    args,
    (pair) => {
      if (pair.key === 'state') {
        const states = pair.value
          .split(',')
          .map((s) => s.trim().toUpperCase())
          .filter(Boolean);
        const unknown = states.find((s) => !isKnownState(s));
        if (states.length === 0 || unknown !== undefined) {
          return {
            ok: false,
            code: 'unknown_state',
            message: `unknown state "${unknown ?? pair.value}"; valid states: ${KNOWN_STATE_NAMES.join(', ')}`,
          };
        }
        command.state = [...new Set([...(command.state ?? []), ...states])];
        return undefined;
      }
      if (pair.key === 'name') {
        const check = checkOptionValue('name', pair.value);
        if (!check.ok) return { ok: false, code: 'invalid_option_value', message: check.message };
        command.name = check.value;
        return undefined;
      }
      return badArguments(`list filters are state=…, name=… and mine, not "${pair.key}"`);
    },
    (word) => {
      if (word.toLowerCase() === 'mine') {
        command.mine = true;
        return undefined;
      }
      return badArguments(`list filters are state=…, name=… and mine, not "${word}"`);
    },
  );
  return error ?? { ok: true, command };
}

/**
 * A person named in `user=`: a Slack mention `<@U123>` (or `<@U123|name>`), a Jira mention
 * `[~accountid:<id>]` (kept as `accountid:<id>`, so a name typed as text is told apart), or
 * `@login`.
 */
function personOf(raw: string): string | undefined {
  const value = raw.trim();
  const mention = /^<@([A-Z0-9]{2,30})(?:\|[^>]*)?>$/.exec(value);
  if (mention) return mention[1];
  const jira = /^\[~accountid:([A-Za-z0-9:_-]{1,128})\]$/.exec(value);
  if (jira) return `accountid:${jira[1]}`;
  const login = value.startsWith('@') ? value.slice(1) : value;
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,38}$/.test(login) ? login : undefined;
}

/** Keys a channel/repo default may set: every option but the per-run `title`. */
export const CONFIG_KEYS: readonly OptionKey[] = [
  ...OPTION_KEYS.filter((k) => k !== 'title'),
  'steer',
  'budget',
  'approve',
];

/** `config key=value …`; `key=` or `key=-` unsets the default (a quoted `"-"` is text). */
export function parseConfigArgs(args: string): Parsed<Extract<Command, { type: 'config' }>> {
  const set: RunOptions = {};
  const unset: OptionKey[] = [];
  let user: string | undefined;
  const error = eachArgument(
    args,
    (pair) => {
      if (pair.key === 'user') {
        if (user !== undefined)
          return { ok: false, code: 'duplicate_option', message: 'option user is given twice' };
        user = personOf(pair.value);
        return user === undefined
          ? {
              ok: false,
              code: 'invalid_option_value',
              message: `user must name one person, as a mention (@name), not "${pair.value}"`,
            }
          : undefined;
      }
      if (pair.key === 'title') return badArguments('title is set per run; it cannot be a default');
      const value = pair.value.trim();
      const unsets = value === '' || (value === '-' && !pair.quoted);
      if (!unsets) return addOption(set, pair, CONFIG_KEYS);
      if (!isOptionKey(pair.key) || !CONFIG_KEYS.includes(pair.key)) {
        return unknownOptionError(pair.key);
      }
      if (unset.includes(pair.key) || set[pair.key] !== undefined) {
        return {
          ok: false,
          code: 'duplicate_option',
          message: `option ${pair.key} is given twice`,
        };
      }
      unset.push(pair.key);
      return undefined;
    },
    (word) =>
      badArguments(`config takes key=value pairs (keys: ${CONFIG_KEYS.join(', ')}), not "${word}"`),
  );
  if (error) return error;
  const duplicate = unset.find((k) => set[k] !== undefined);
  if (duplicate) {
    return { ok: false, code: 'duplicate_option', message: `option ${duplicate} is given twice` };
  }
  if (user !== undefined) {
    const other = [...(Object.keys(set) as OptionKey[]), ...unset].find((k) => k !== 'budget');
    if (other !== undefined || (set.budget === undefined && !unset.includes('budget')))
      return badArguments(
        `a person has only a budget: config user=@<person> budget=<US dollars> (or budget=- to remove it)`,
      );
    return { ok: true, command: { type: 'config', set, unset, user } };
  }
  return { ok: true, command: { type: 'config', set, unset } };
}
