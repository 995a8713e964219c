/**
 * The run modes the Agent Run Service accepts as `mode`, on a create and on a follow-up alike:
 * the one list the option parser, the help text, the use cases and the contract schemas read.
 */
export const RUN_MODES = ['normal', 'plan', 'orchestrate'] as const;

export type RunMode = (typeof RUN_MODES)[number];

export function isRunMode(value: string): value is RunMode {
  return (RUN_MODES as readonly string[]).includes(value);
}
