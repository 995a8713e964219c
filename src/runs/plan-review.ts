/**
 * When a BLOCKED run waits on its plan (docs/usage.md, "Plan first"): it was started in plan
 * (or orchestrate) mode, or someone asked for changes to its plan since, and it carries a
 * `PLAN` artifact. Anything else BLOCKED is a question, told as usual. Pure.
 */
import type { Artifact, RunItem } from '../core/run.js';
import type { RunRecord } from '../core/ports/index.js';
import { isBlockedState } from '../core/run.js';

/** The modes whose runs plan first and wait for approval (the published description). */
const PLANNING_MODES: ReadonlySet<string> = new Set(['plan', 'orchestrate']);

export function planArtifactOf(item: Pick<RunItem, 'artifacts'>): Artifact | undefined {
  return item.artifacts?.findLast((a) => a.artifact_type === 'PLAN');
}

/** Whether this run's next plan is one to review: planning mode, or changes were asked for. */
export function expectsPlan(record: Pick<RunRecord, 'applied' | 'review'>): boolean {
  if (record.review?.kind === 'plan') return record.review.status === 'changes';
  const mode = record.applied.find((s) => s.key === 'mode')?.value;
  return mode !== undefined && PLANNING_MODES.has(mode);
}

/** The plan artifact of a BLOCKED episode that waits on its plan, not yet told. */
export function planToReview(
  record: Pick<RunRecord, 'applied' | 'review' | 'notifiedState'>,
  item: Pick<RunItem, 'state' | 'artifacts'>,
): Artifact | undefined {
  if (!isBlockedState(item.state) || record.notifiedState === item.state) return undefined;
  if (!expectsPlan(record)) return undefined;
  return planArtifactOf(item);
}

const text = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v : undefined;

/** What an artifact's data says of a plan: its uid (for the read), title and http(s) link. */
export function planFields(artifact: Artifact): { uid?: string; title?: string; url?: string } {
  const uid = text(artifact.data.artifact_uid);
  const title = text(artifact.data.title);
  const url = text(artifact.data.url);
  return {
    ...(uid ? { uid } : {}),
    ...(title ? { title } : {}),
    ...(url && /^https?:\/\//i.test(url) ? { url } : {}),
  };
}
