/** The run a thread-level command (status, cancel, follow-up) is about. */
import type { RunRecord } from '../../core/ports/index.js';
import type { RunsDeps } from '../runs-deps.js';

export async function currentRunId(
  deps: Pick<RunsDeps, 'store'>,
  threadKey: string,
): Promise<string | undefined> {
  return (await deps.store.threads.get(threadKey))?.currentRunId;
}

export async function currentRun(
  deps: Pick<RunsDeps, 'store'>,
  threadKey: string,
): Promise<RunRecord | undefined> {
  const runId = await currentRunId(deps, threadKey);
  return runId ? deps.store.runs.get(runId) : undefined;
}
