/**
 * Options that lead a prompt: `key=value` tokens and `[key=value, …]` groups, up to the first
 * word that is neither. Only LEADING tokens are options: `fix a=b in parser` is all prompt.
 */
import type { ParseErrorCode, RunOptions } from './command.js';
import type { OptionKey } from '../message/message-model.js';
import { OPTION_KEYS } from './help-text.js';
import { checkOptionValue, isOptionKey } from './option-values.js';
import { readToken } from './read-token.js';
import type { PairToken } from './read-token.js';

export interface OptionError {
  ok: false;
  code: ParseErrorCode;
  message: string;
}
export type LeadingOptions = { ok: true; options: RunOptions; rest: string } | OptionError;

export function unknownOptionError(key: string): OptionError {
  return {
    ok: false,
    code: 'unknown_option',
    message:
      `unknown option "${key}" (options: ${OPTION_KEYS.join(', ')}). ` +
      'To start a prompt with key=value text, quote the prompt or put a word first.',
  };
}

/** Add one `key=value` to `into`, checking the key, duplicates and the value. */
export function addOption(
  into: RunOptions,
  pair: PairToken,
  allowed: readonly OptionKey[] = OPTION_KEYS,
): OptionError | undefined {
  const { key } = pair;
  if (!isOptionKey(key) || !allowed.includes(key)) return unknownOptionError(key);
  if (into[key] !== undefined) {
    return { ok: false, code: 'duplicate_option', message: `option ${key} is given twice` };
  }
  const check = checkOptionValue(key, pair.value);
  if (!check.ok) return { ok: false, code: 'invalid_option_value', message: check.message };
  into[key] = check.value;
  return undefined;
}

/** Read the options at the start of `text`; `rest` is everything after them, untouched. */
export function readLeadingOptions(
  text: string,
  allowed: readonly OptionKey[] = OPTION_KEYS,
): LeadingOptions {
  const options: RunOptions = {};
  let i = 0;
  for (;;) {
    const token = readToken(text, i);
    switch (token.kind) {
      case 'error':
        return { ok: false, code: token.code, message: token.message };
      case 'end':
        return { ok: true, options, rest: '' };
      case 'word':
        return { ok: true, options, rest: text.slice(token.start) };
      case 'pair': {
        const error = addOption(options, token, allowed);
        if (error) return error;
        i = token.end;
        break;
      }
      case 'group':
        for (const pair of token.pairs) {
          const error = addOption(options, pair, allowed);
          if (error) return error;
        }
        i = token.end;
        break;
    }
  }
}
