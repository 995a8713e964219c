/**
 * Run items checked one by one. A list page holds runs from every source in the team; one
 * that is off the published description (a null where a string belongs, a field of the wrong
 * type) must not reject the runs around it. An item whose only faults are in optional fields
 * is kept without those fields; one whose identity or state cannot be read is skipped. Either
 * way it is reported once per run id, so a run that stays odd is not logged every cycle.
 */
import type { z } from 'zod';
import type { ValidationIssue } from './errors.js';
import { RunItemSchema, type RunItem } from './schemas.js';

/** Fields without which an item means nothing to us: it is skipped. */
const REQUIRED = new Set(['run_id', 'title', 'prompt', 'state', 'created_at', 'updated_at']);
/** How many reported run ids are remembered (oldest forgotten first). */
export const REPORTED_IDS_KEPT = 1_000;

export interface OffSpecRunItem {
  /** The run's id when it could be read. */
  runId?: string;
  /** What did not match, by field path. */
  issues: ValidationIssue[];
  /** True when the item was left out; false when it was kept without `droppedFields`. */
  skipped: boolean;
  droppedFields: string[];
}

export interface ParsedRunItem {
  item?: RunItem;
  offSpec?: OffSpecRunItem;
}

function issuesOf(error: z.ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.length > 0 ? issue.path.map(String).join('.') : '(item)',
    message: issue.message,
  }));
}

function idOf(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const id = (raw as Record<string, unknown>).run_id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

export function parseRunItem(raw: unknown): ParsedRunItem {
  const first = RunItemSchema.safeParse(raw);
  if (first.success) return { item: first.data };
  const issues = issuesOf(first.error);
  const runId = idOf(raw);
  const skip = (): ParsedRunItem => ({
    offSpec: { ...(runId ? { runId } : {}), issues, skipped: true, droppedFields: [] },
  });
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return skip();
  const fields = new Set(first.error.issues.map((issue) => String(issue.path[0] ?? '')));
  if ([...fields].some((field) => field === '' || REQUIRED.has(field))) return skip();
  const trimmed: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  for (const field of fields) delete trimmed[field];
  const second = RunItemSchema.safeParse(trimmed);
  if (!second.success) return skip();
  return {
    item: second.data,
    offSpec: {
      ...(runId ? { runId } : {}),
      issues,
      skipped: false,
      droppedFields: [...fields].sort(),
    },
  };
}

/**
 * Parses the items of one page, reporting each off-spec run the first time it is seen (an
 * item without a readable id is reported every time: there is nothing to remember it by).
 */
export function createRunItemParser(
  report: ((item: OffSpecRunItem) => void) | undefined,
): (raws: readonly unknown[]) => RunItem[] {
  const reported = new Set<string>();
  function once(offSpec: OffSpecRunItem): void {
    if (offSpec.runId !== undefined) {
      if (reported.has(offSpec.runId)) return;
      reported.add(offSpec.runId);
      if (reported.size > REPORTED_IDS_KEPT) {
        const oldest = reported.values().next().value;
        if (oldest !== undefined) reported.delete(oldest);
      }
    }
    try {
      report?.(offSpec);
    } catch {
      // A logging hook must never break a listing.
    }
  }
  return (raws) => {
    const items: RunItem[] = [];
    for (const raw of raws) {
      const parsed = parseRunItem(raw);
      if (parsed.offSpec) once(parsed.offSpec);
      if (parsed.item) items.push(parsed.item);
    }
    return items;
  };
}
