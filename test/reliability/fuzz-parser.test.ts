/**
 * Fuzzing: the command parser and the thread-key decoder never throw, on
 * any input, and round-trip: a command written in the grammar parses back to itself, and a
 * valid thread address encodes to a key that decodes to the same address.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyOptions } from '../helpers/property.js';
import { parseCommand } from '../../src/core/command/parse-command.js';
import {
  decodeThreadKey,
  encodeThreadKey,
  platformOf,
  settingsScopeOf,
} from '../../src/core/thread-key.js';
import type { ThreadAddress } from '../../src/core/thread-key.js';
import { anyText, hostileText } from './fuzz-arbitraries.js';
import { commandArb, formatCommand } from './fuzz-commands.js';

const RUNS = 1500;

describe('command parser: never throws', () => {
  it('any text, any settings: one of ignore | reply | command, never an exception', () => {
    fc.assert(
      fc.property(
        anyText,
        fc.boolean(),
        fc.constantFrom('slack' as const, 'github' as const),
        fc.oneof(fc.constant('agent-relay'), fc.string({ maxLength: 40 })),
        fc.option(fc.oneof(fc.constant('/agent'), fc.string({ maxLength: 12 })), {
          nil: undefined,
        }),
        (text, addressed, platform, botHandle, commandWord) => {
          const result = parseCommand({ text, addressed, platform, botHandle, commandWord });
          expect(['ignore', 'reply', 'command']).toContain(result.kind);
        },
      ),
      propertyOptions(RUNS),
    );
  });

  it('long and hostile input is answered quickly (no catastrophic backtracking)', () => {
    const big = fc
      .tuple(hostileText, fc.integer({ min: 1_000, max: 20_000 }))
      .map(([s, n]) => s.repeat(Math.ceil(n / Math.max(1, s.length))).slice(0, n));
    fc.assert(
      fc.property(big, fc.boolean(), (text, addressed) => {
        const started = performance.now();
        parseCommand({ text, addressed, platform: 'github', botHandle: 'agent-relay' });
        parseCommand({
          text: `@agent-relay ${text}`,
          addressed,
          platform: 'github',
          botHandle: 'agent-relay',
        });
        expect(performance.now() - started).toBeLessThan(500);
      }),
      propertyOptions(60),
    );
  });

  it('a prompt over the limit is a "too long" reply, never a command', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 101, max: 5_000 }),
        fc.integer({ min: 1, max: 100 }),
        (len, max) => {
          const result = parseCommand({
            text: `fix ${'x'.repeat(len)}`,
            addressed: true,
            platform: 'slack',
            botHandle: 'agent-relay',
            maxPromptChars: max,
          });
          expect(result).toMatchObject({
            kind: 'reply',
            reply: { type: 'error', code: 'prompt_too_long' },
          });
        },
      ),
      propertyOptions(200),
    );
  });
});

describe('command parser: round trip', () => {
  it('a command written in the grammar parses back to the same command (Slack, addressed)', () => {
    fc.assert(
      fc.property(commandArb, fc.integer({ min: 0, max: 1_000 }), (command, seed) => {
        const text = formatCommand(command, seed);
        const result = parseCommand({
          text,
          addressed: true,
          platform: 'slack',
          botHandle: 'agent-relay',
        });
        expect(result, text).toEqual({ kind: 'command', command });
      }),
      propertyOptions(RUNS),
    );
  });

  it('the same command after an @-mention or a /agent line on GitHub parses the same', () => {
    fc.assert(
      fc.property(
        commandArb,
        fc.integer({ min: 0, max: 1_000 }),
        fc.constantFrom('@agent-relay ', '@Agent-Relay: ', '/agent ', 'intro text\n\n/agent '),
        (command, seed, lead) => {
          const text = `${lead}${formatCommand(command, seed)}`;
          const result = parseCommand({
            text,
            addressed: false,
            platform: 'github',
            botHandle: 'agent-relay',
          });
          expect(result, text).toEqual({ kind: 'command', command });
        },
      ),
      propertyOptions(RUNS),
    );
  });

  it('formatting is not vacuous: every kind of command is generated', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(commandArb, (c) => {
        seen.add(c.type);
        if (c.type === 'run' && Object.keys(c.options).length > 0) seen.add('run+options');
      }),
      propertyOptions(500),
    );
    expect([...seen].sort()).toEqual(
      ['cancel', 'config', 'factory', 'list', 'run', 'run+options', 'status', 'stop'].sort(),
    );
  });

  it('help words, and the bot addressed without words, are the help reply', () => {
    for (const text of ['help', 'HELP', '?', '--help', '-h', '', '   ']) {
      expect(
        parseCommand({ text, addressed: true, platform: 'slack', botHandle: 'agent-relay' }),
      ).toEqual({ kind: 'reply', reply: { type: 'help' } });
    }
    for (const text of ['@agent-relay', '@agent-relay help', '/agent', '/agent ?']) {
      expect(
        parseCommand({ text, addressed: false, platform: 'github', botHandle: 'agent-relay' }),
      ).toEqual({ kind: 'reply', reply: { type: 'help' } });
    }
  });
});

// ---------------------------------------------------------------------------------------
// Thread keys

const slackId = fc.stringMatching(/^[A-Za-z0-9]{1,64}$/);
const slackTs = fc.oneof(fc.constant(''), fc.stringMatching(/^\d{1,20}\.\d{1,20}$/));
const ghOwner = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9-]{0,38}$/);
const ghRepo = fc.stringMatching(/^[A-Za-z0-9._-]{1,100}$/).filter((r) => r !== '.' && r !== '..');
const positive = fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER });

const address: fc.Arbitrary<ThreadAddress> = fc.oneof(
  fc.record({
    platform: fc.constant('slack' as const),
    team: slackId,
    channel: slackId,
    threadTs: slackTs,
  }),
  fc
    .record({
      platform: fc.constant('github' as const),
      owner: ghOwner,
      repo: ghRepo,
      number: positive,
      reviewCommentId: fc.option(positive, { nil: undefined }),
    })
    .map(({ reviewCommentId, ...rest }) =>
      reviewCommentId === undefined ? rest : { ...rest, reviewCommentId },
    ),
);

const keyish = fc.oneof(
  anyText,
  fc
    .tuple(fc.constantFrom('slack:', 'github:', 'SLACK:', 'github:o/r#'), anyText)
    .map(([a, b]) => a + b),
  address
    .map((a) => encodeThreadKey(a))
    .chain((k) =>
      fc.tuple(fc.nat({ max: k.length }), anyText).map(([i, s]) => k.slice(0, i) + s + k.slice(i)),
    ),
);

describe('thread keys', () => {
  it('decode never throws; what decodes re-encodes to the same key', () => {
    fc.assert(
      fc.property(keyish, (key) => {
        const decoded = decodeThreadKey(key);
        expect(() => platformOf(key)).not.toThrow();
        expect(() => settingsScopeOf(key)).not.toThrow();
        if (decoded !== undefined) expect(encodeThreadKey(decoded)).toBe(key);
      }),
      propertyOptions(RUNS * 2),
    );
  });

  it('every valid address round-trips through its key', () => {
    fc.assert(
      fc.property(address, (addr) => {
        const key = encodeThreadKey(addr);
        expect(decodeThreadKey(key)).toEqual(addr);
        expect(platformOf(key)).toBe(addr.platform);
        expect(settingsScopeOf(key)).toBe(settingsScopeOf(addr));
      }),
      propertyOptions(RUNS),
    );
  });

  it('keys of different addresses never collide', () => {
    fc.assert(
      fc.property(address, address, (a, b) => {
        if (JSON.stringify(a) !== JSON.stringify(b)) {
          expect(encodeThreadKey(a)).not.toBe(encodeThreadKey(b));
        }
      }),
      propertyOptions(RUNS),
    );
  });
});
