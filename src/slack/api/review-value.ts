/**
 * The value of an answer button (a plan's, a cap's): `<run id>:<version>`, read back by the
 * ingress. A run id has no spaces; the version is the last `:`-separated part.
 */
export function reviewValue(runId: string, version: number): string {
  return `${runId}:${version}`;
}

export function readReviewValue(value: string): { runId: string; version: number } | undefined {
  const match = /^([A-Za-z0-9._-][A-Za-z0-9._:-]{0,127}):(\d{1,9})$/.exec(value);
  if (!match) return undefined;
  return { runId: match[1]!, version: Number(match[2]) };
}
