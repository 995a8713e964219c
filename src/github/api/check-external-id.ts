/**
 * A run's check run names its run in `external_id`, written by render/ and read by ingress/
 * and notify/. It also carries the pull request's number (`<run id>#<number>`): GitHub lists
 * no pull request on a check run whose commit lives in a fork, so a click there would
 * otherwise not know which conversation to answer in. An id without `#` is a check run
 * written before the number was carried, and still names its run.
 */
export function checkExternalId(runId: string, pullNumber: number): string {
  return `${runId}#${pullNumber}`;
}

export function readCheckExternalId(externalId: string): { runId: string; pullNumber?: number } {
  const match = /^(.+)#([1-9]\d{0,9})$/.exec(externalId);
  if (!match) return { runId: externalId };
  return { runId: match[1]!, pullNumber: Number(match[2]) };
}
