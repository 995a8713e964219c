/**
 * A run id as tables and cards show it: its first characters, as `git` shows a commit. The
 * full id stays where someone copies it (the GitHub card's details, a `status` answer), and
 * commands accept a short id that names one run of the place (current-run.ts).
 */
export const SHORT_RUN_ID_LENGTH = 8;

export function shortRunId(runId: string): string {
  return runId.length <= SHORT_RUN_ID_LENGTH ? runId : runId.slice(0, SHORT_RUN_ID_LENGTH);
}
