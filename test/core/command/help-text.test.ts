import { describe, expect, it } from 'vitest';
import {
  OPTION_DOCS,
  OPTION_KEYS,
  USAGE,
  USAGE_BY_TOPIC,
  usageFor,
} from '../../../src/core/command/help-text.js';
import { parseCommand } from '../../../src/core/command/parse-command.js';
import { RUN_MODES } from '../../../src/core/command/run-modes.js';

describe('help text', () => {
  it('documents every option and every command form', () => {
    // Every run option, and `steer`, `budget` and `approve`, which are place settings only.
    expect(Object.keys(OPTION_DOCS).sort()).toEqual(
      [...OPTION_KEYS, 'steer', 'budget', 'approve'].sort(),
    );
    for (const key of OPTION_KEYS) expect(OPTION_DOCS[key].form.startsWith(`${key}=`)).toBe(true);
    expect(USAGE).toHaveLength(Object.keys(USAGE_BY_TOPIC).length);
  });

  it('lists every run mode the parser accepts', () => {
    expect(OPTION_DOCS.mode.form).toBe('mode=normal|plan|orchestrate');
    for (const mode of RUN_MODES) {
      const result = parseCommand({
        text: `mode=${mode} go`,
        addressed: true,
        platform: 'slack',
        botHandle: 'b',
      });
      expect(result).toEqual({
        kind: 'command',
        command: { type: 'run', prompt: 'go', options: { mode }, fresh: false },
      });
    }
  });

  it('prefixes the invocation', () => {
    expect(usageFor('status', '/agent')).toBe('/agent status [run_id]');
    expect(usageFor('list', '@agent-relay')).toBe('@agent-relay list [state=A,B] [name=…] [mine]');
  });

  it.each(Object.entries(USAGE_BY_TOPIC))(
    'the %s form starts with its keyword, which the parser knows',
    (topic, line) => {
      if (topic === 'prompt') return;
      const keyword = line.form.split(' ')[0] ?? '';
      const result = parseCommand({
        text: keyword,
        addressed: true,
        platform: 'slack',
        botHandle: 'b',
      });
      // A keyword alone is a command, help, or an error naming that keyword's form: never a prompt.
      if (result.kind === 'command') expect(result.command.type).toBe(topic);
      else if (result.kind === 'reply' && result.reply.type === 'error')
        expect(result.reply.usage).toContain(line.form);
      else expect(result).toEqual({ kind: 'reply', reply: { type: 'help' } });
    },
  );
});
