/**
 * Commands of the grammar as fast-check arbitraries, and a formatter that writes a command
 * back as text in one of several equivalent styles (bare or quoted values, `[…]` groups,
 * upper-case keywords and keys, extra spaces), for the parser's round-trip property.
 */
import fc from 'fast-check';
import { KNOWN_STATES } from '../../src/agent/schemas.js';
import type { Command, RunOptions } from '../../src/core/command/command.js';
import type { OptionKey } from '../../src/core/message/message-model.js';
import { OPTION_KEYS } from '../../src/core/command/help-text.js';
import { RUN_MODES } from '../../src/core/command/run-modes.js';
import { hostileText } from './fuzz-arbitraries.js';

const SAFE_WORD = /^[a-z]{1,8}$/;
const KEYWORDS = new Set([
  'new',
  'now',
  'status',
  'cancel',
  'stop',
  'approve',
  'changes',
  'continue',
  'list',
  'config',
  'factory',
  'help',
]);
const word = fc.stringMatching(SAFE_WORD).filter((w) => !KEYWORDS.has(w));
const identifier = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,40}$/);
const factoryAlias = fc
  .stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,30}$/)
  .filter((a) => !a.toLowerCase().startsWith('agent-relay'));
const skillSpec = fc.oneof(
  fc.stringMatching(
    /^[A-Za-z0-9][A-Za-z0-9-]{0,10}\/[A-Za-z0-9._-]{1,12}:[A-Za-z0-9][A-Za-z0-9._-]{0,12}$/,
  ),
  fc.stringMatching(
    /^[A-Za-z0-9][A-Za-z0-9-]{0,10}\/[A-Za-z0-9._-]{1,12}:(?:[a-z]{1,6}\/){0,3}SKILL\.md$/,
  ),
);
/** Free text for name/title: already normalised (single spaces, trimmed), no quotes. */
const freeText = fc
  .array(fc.stringMatching(/^[^\s"'“”‘’]{1,10}$/), { minLength: 1, maxLength: 6 })
  .map((ws) => ws.join(' '))
  .filter((s) => s.length <= 256);

const VALUE: Record<OptionKey, fc.Arbitrary<string>> = {
  model: identifier,
  env: identifier,
  skill: skillSpec,
  name: freeText,
  title: freeText,
  mode: fc.constantFrom(...RUN_MODES),
  factory: factoryAlias,
  steer: fc.constantFrom('anyone', 'requester'),
  budget: fc
    .tuple(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 1, max: 99 }))
    .map(([dollars, cents]) => String(Number(`${dollars}.${String(cents).padStart(2, '0')}`))),
  cap: fc
    .tuple(fc.integer({ min: 0, max: 9_999 }), fc.integer({ min: 1, max: 99 }))
    .map(([dollars, cents]) => String(Number(`${dollars}.${String(cents).padStart(2, '0')}`))),
  approve: fc.constantFrom('requester', 'admins', 'anyone'),
};

function optionsArb(keys: readonly OptionKey[]): fc.Arbitrary<RunOptions> {
  return fc
    .subarray([...keys])
    .chain((chosen) => fc.tuple(...chosen.map((k) => VALUE[k].map((v) => [k, v] as const))))
    .map((pairs) => Object.fromEntries(pairs) as RunOptions);
}

const ALL_KEYS: readonly OptionKey[] = OPTION_KEYS;
const CONFIG_KEYS = ALL_KEYS.filter((k) => k !== 'title');

/** A trimmed, non-empty prompt: hostile text in quotes, or plain words first. */
const prompt = fc.oneof(
  hostileText.map((s) => s.replace(/["\r]/g, '').trim()).filter((s) => s !== ''),
  fc.tuple(word, hostileText).map(([w, rest]) => `${w} ${rest.replace(/\r/g, '')}`.trim()),
);
const runId = fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/);

export const commandArb: fc.Arbitrary<Command> = fc.oneof(
  fc.record({
    type: fc.constant('run' as const),
    prompt,
    options: optionsArb(ALL_KEYS),
    fresh: fc.boolean(),
  }),
  fc
    .option(runId, { nil: undefined })
    .map((id) =>
      id === undefined ? { type: 'status' as const } : { type: 'status' as const, runId: id },
    ),
  fc
    .option(runId, { nil: undefined })
    .map((id) =>
      id === undefined ? { type: 'cancel' as const } : { type: 'cancel' as const, runId: id },
    ),
  fc
    .option(runId, { nil: undefined })
    .map((id) =>
      id === undefined ? { type: 'stop' as const } : { type: 'stop' as const, runId: id },
    ),
  fc
    .record({
      state: fc.option(fc.uniqueArray(fc.constantFrom(...KNOWN_STATES), { minLength: 1 }), {
        nil: undefined,
      }),
      name: fc.option(freeText, { nil: undefined }),
      mine: fc.boolean(),
    })
    .map(({ state, name, mine }) => ({
      type: 'list' as const,
      mine,
      ...(state === undefined ? {} : { state: [...state] }),
      ...(name === undefined ? {} : { name }),
    })),
  optionsArb(CONFIG_KEYS).chain((set) =>
    fc
      .subarray(CONFIG_KEYS.filter((k) => set[k] === undefined))
      .chain((keys) => fc.shuffledSubarray(keys, { minLength: keys.length }))
      .map((unset) => ({ type: 'config' as const, set, unset })),
  ),
  fc.record({
    type: fc.constant('factory' as const),
    alias: factoryAlias,
    prompt,
    options: optionsArb(ALL_KEYS.filter((k) => k !== 'factory')),
  }),
);

/** `key=value` as text, in a style chosen by `seed` (bare, quoted, upper-case key). */
function pair(key: string, value: string, seed: number): string {
  const k = seed % 3 === 0 ? key.toUpperCase() : key;
  // A bare `-` unsets a `config` default (`key=-`): as text it is written quoted.
  const needsQuotes =
    /[\s,\]]/.test(value) || value === '' || value === '-' || /^["'“‘]/.test(value);
  if (!needsQuotes && seed % 2 === 0) return `${k}=${value}`;
  const [open, close] = seed % 5 === 0 ? ['“', '”'] : seed % 7 === 0 ? ["'", "'"] : ['"', '"'];
  return `${k}=${open}${value}${close}`;
}

function formatOptions(options: RunOptions, seed: number): string {
  const entries = Object.entries(options);
  if (entries.length === 0) return '';
  const pairs = entries.map(([k, v], i) => pair(k, v, seed + i));
  return seed % 4 === 1 ? `[${pairs.join(', ')}]` : pairs.join(' ');
}

function formatPrompt(p: string): string {
  // A prompt that starts with a plain word stays as written; anything else is quoted.
  return /^[a-z]{1,8}(\s|$)/.test(p) ? p : `"${p}"`;
}

/** Write `command` as text the grammar reads back as the same command. */
export function formatCommand(command: Command, seed: number): string {
  const kw = (w: string) => (seed % 3 === 2 ? w.toUpperCase() : w);
  const join = (...parts: string[]) => parts.filter((p) => p !== '').join(seed % 2 ? '  ' : ' ');
  switch (command.type) {
    case 'approve':
    case 'continue':
      return join(kw(command.type), command.runId ?? '');
    case 'changes':
      return join(kw('changes'), command.text);
    case 'run':
      return join(
        command.fresh ? kw('new') : command.now ? kw('now') : '',
        formatOptions(command.options, seed),
        formatPrompt(command.prompt),
      );
    case 'status':
    case 'cancel':
    case 'stop': {
      const id =
        command.runId === undefined ? '' : seed % 4 === 0 ? `\`${command.runId}\`` : command.runId;
      return join(kw(command.type), id);
    }
    case 'list': {
      const state =
        command.state === undefined
          ? ''
          : `state=${command.state.map((s) => (seed % 2 ? s.toLowerCase() : s)).join(',')}`;
      const name = command.name === undefined ? '' : pair('name', command.name, seed + 1);
      return join(kw('list'), state, name, command.mine ? kw('mine') : '');
    }
    case 'config': {
      const unset = command.unset.map((k, i) => ((seed + i) % 2 ? `${k}=` : `${k}=-`));
      return join(kw('config'), formatOptions(command.set, seed), ...unset);
    }
    case 'factory': {
      const head = seed % 2 ? `@${command.alias}` : `${kw('factory')} ${command.alias}`;
      return join(head, formatOptions(command.options, seed), formatPrompt(command.prompt));
    }
  }
}
