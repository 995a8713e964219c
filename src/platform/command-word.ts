/** The word a command starts with (`/agent`): Slack's slash command, used on every platform. */
import type { Config } from '../config/load.js';
import { DEFAULT_COMMAND_WORD } from '../core/command/parse-command.js';

export function commandWord(config: Config): string {
  return config.slack?.command ?? DEFAULT_COMMAND_WORD;
}
