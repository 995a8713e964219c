/**
 * What the command parser produces (docs/architecture.md, "Command grammar"): ignore, a direct reply
 * (help or an error that shows the right form), or a command for the runs use cases.
 */
import type { OptionKey } from '../message/message-model.js';

/** Options given inline (or stored as channel/repo defaults), already validated. */
export type RunOptions = Partial<Record<OptionKey, string>>;

export type Command =
  /**
   * A prompt: start a run here or follow up on the thread's run (`fresh`: `new <prompt>`;
   * `now`: `now <prompt>`, which starts the work without a plan first).
   */
  | { type: 'run'; prompt: string; options: RunOptions; fresh: boolean; now?: boolean }
  /** Approve the plan waiting in this thread (or of the run named): the agent carries it out. */
  | { type: 'approve'; runId?: string }
  /**
   * Ask for a revised plan. `words` is the whole text as typed (`changes …`): with no plan
   * waiting here it is an ordinary prompt.
   */
  | { type: 'changes'; text: string; words: string }
  /** Let a run stopped at its spending cap go on for another cap. */
  | { type: 'continue'; runId?: string }
  | { type: 'status'; runId?: string }
  | { type: 'cancel'; runId?: string }
  /** Stop the agent's current turn (the run stays open for a reply); cancels what cannot be. */
  | { type: 'stop'; runId?: string }
  /** `state` values are upper-cased known states. */
  | { type: 'list'; state?: string[]; name?: string; mine: boolean }
  /** `factory <alias> <prompt>` or `@<alias> <prompt>`; the alias has no leading '@'. */
  | { type: 'factory'; alias: string; prompt: string; options: RunOptions }
  /** `config` shows (both empty); `config key=value …` sets; `key=` or `key=-` unsets. */
  | {
      type: 'config';
      set: RunOptions;
      unset: OptionKey[];
      /** `user=@<person>`: the settings are that person's (only `budget`; see core/place.ts). */
      user?: string;
    };

/**
 * A prompt, here or at a factory: the commands whose answer (the run's status message) is for
 * everyone. The others answer the asker (on Slack, privately).
 */
export function isPrompt(
  command: Command,
): command is Extract<Command, { type: 'run' | 'factory' }> {
  return command.type === 'run' || command.type === 'factory';
}

/** Stable codes of parse errors (tests and callers read these, never the message text). */
export type ParseErrorCode =
  | 'unknown_option'
  | 'invalid_option_value'
  | 'duplicate_option'
  | 'unbalanced_quote'
  | 'unbalanced_bracket'
  | 'malformed_options'
  | 'empty_prompt'
  | 'prompt_too_long'
  | 'unknown_state'
  | 'bad_arguments'
  | 'missing_factory_alias';

export interface ParseErrorReply {
  type: 'error';
  code: ParseErrorCode;
  /** A short plain-text sentence. */
  message: string;
  /** The right form, with this platform's invocation (`/agent …`, `@agent-relay …`). */
  usage: string;
}

export type IgnoreReason =
  /** No mention of the bot and no command line outside code and quotes. */
  | 'not_addressed'
  /** The bot is mentioned in passing (`thanks @agent-relay!`) with no words for it. */
  | 'mention_without_words';

export type ParseResult =
  | { kind: 'ignore'; reason: IgnoreReason }
  | { kind: 'reply'; reply: { type: 'help' } | ParseErrorReply }
  | { kind: 'command'; command: Command };
