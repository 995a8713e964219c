import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyOptions } from '../../helpers/property.js';
import { OPTION_KEYS } from '../../../src/core/command/help-text.js';
import { parseCommand } from '../../../src/core/command/parse-command.js';

/** Text biased towards the grammar's special characters and words. */
const piece = fc.oneof(
  fc.constantFrom(
    '@agent-relay',
    '/agent',
    '<@U1>',
    '```',
    '~~~',
    '`',
    '> ',
    '    ',
    '\n',
    '\r\n',
    '[',
    ']',
    '"',
    "'",
    '“',
    '”',
    '=',
    ',',
    'model=',
    'mode=plan',
    'state=',
    'new',
    'status',
    'cancel',
    'stop',
    'list',
    'factory',
    'config',
    'help',
    'mine',
    '<!--',
    '-->',
    '&gt;',
    '@fe',
    ' ',
  ),
  fc.string({ maxLength: 8 }),
  fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
);
const text = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join(''));

const input = fc.record({
  text,
  addressed: fc.boolean(),
  platform: fc.constantFrom('slack' as const, 'github' as const),
  botHandle: fc.oneof(fc.constant('agent-relay'), fc.string({ maxLength: 12 })),
  commandWord: fc.option(fc.oneof(fc.constant('/agent'), fc.string({ maxLength: 6 })), {
    nil: undefined,
  }),
  maxPromptChars: fc.option(fc.integer({ min: 0, max: 50 }), { nil: undefined }),
});

describe('parseCommand properties', () => {
  it('never throws, and every result is well formed', () => {
    fc.assert(
      fc.property(input, (i) => {
        const result = parseCommand(i);
        const max = i.maxPromptChars ?? 32_000;
        if (result.kind === 'reply' && result.reply.type === 'error') {
          expect(result.reply.message).not.toBe('');
          expect(result.reply.usage).not.toBe('');
        }
        if (result.kind !== 'command') return;
        const c = result.command;
        if (c.type === 'run' || c.type === 'factory') {
          expect(c.prompt.trim()).not.toBe('');
          expect(c.prompt.length).toBeLessThanOrEqual(max);
          for (const key of Object.keys(c.options)) expect(OPTION_KEYS).toContain(key);
        }
        if (c.type === 'status' || c.type === 'cancel' || c.type === 'stop') {
          if (c.runId !== undefined) expect(c.runId).toMatch(/^\S+$/);
        }
      }),
      propertyOptions(2000),
    );
  });

  it('a wholly quoted prompt escapes the grammar', () => {
    const prompt = fc
      .string({ minLength: 1, maxLength: 200 })
      .filter((s) => !s.includes('"') && s.trim() !== '');
    fc.assert(
      fc.property(prompt, fc.constantFrom('slack' as const, 'github' as const), (p, platform) => {
        const result = parseCommand({
          text: `"${p}"`,
          addressed: true,
          platform,
          botHandle: 'agent-relay',
        });
        expect(result).toEqual({
          kind: 'command',
          command: { type: 'run', prompt: p.trim(), options: {}, fresh: false },
        });
      }),
      propertyOptions(),
    );
  });

  it('nothing inside a fenced code block addresses the bot', () => {
    const inner = fc
      .array(fc.oneof(piece, fc.constant('@agent-relay fix it')), { maxLength: 20 })
      .map((parts) => parts.join('').replace(/[`~]/g, ''));
    fc.assert(
      fc.property(inner, (body) => {
        const result = parseCommand({
          text: `intro\n\`\`\`\n${body}\n\`\`\``,
          addressed: false,
          platform: 'github',
          botHandle: 'agent-relay',
        });
        expect(result).toEqual({ kind: 'ignore', reason: 'not_addressed' });
      }),
      propertyOptions(),
    );
  });
});
