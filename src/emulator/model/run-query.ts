/**
 * GET /agent/runs: filters, sort and keyset pagination. One pass over the candidates (all
 * runs, or only those in the requested states) keeps the best `limit + 1` after the cursor,
 * so a page costs O(n log limit) at worst and never sorts everything.
 */
import { z } from 'zod';
import { EmulatorProblem } from '../http/problem.js';
import { factoryUidOf } from './factory-item.js';
import { checkListParams } from './list-params.js';
import type { RunStore } from './run-store.js';
import type { EmuRun } from './types.js';

const SORT_BY = ['updated_at', 'created_at', 'title', 'agent'] as const;
const ARTIFACT_TYPES = [
  'PLAN',
  'PULL_REQUEST',
  'SCREENSHOT',
  'FILE',
  'EXTERNAL_REFERENCE',
] as const;
/** `environment_id=empty-environment` matches runs with no environment (the published rule). */
const EMPTY_ENVIRONMENT = 'empty-environment';
/** Sorts after every skill spec: runs without a skill are grouped last (ascending). */
const NO_SKILL_KEY = '\uffff';
const SORT_ORDER = ['desc', 'asc'] as const;
type SortBy = (typeof SORT_BY)[number];
type SortOrder = (typeof SORT_ORDER)[number];
type SortValue = number | string;

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

export interface ListQuery {
  limit: number;
  sortBy: SortBy;
  sortOrder: SortOrder;
  after?: { value: SortValue; seq: number };
  states?: string[];
  name?: string;
  modelId?: string;
  creator?: string;
  sources?: string[];
  createdAfter?: number;
  createdBefore?: number;
  updatedAfter?: number;
  q?: string;
  executor?: string;
  environmentId?: string;
  skillSpec?: string;
  scheduleId?: string;
  ancestorRunId?: string;
  artifactType?: string;
  executionLocation?: string;
  automationId?: string;
  factoryOnly?: boolean;
  factoryUids?: string[];
  metadata: [string, string][];
}

const CursorSchema = z
  .object({
    s: z.enum(SORT_BY),
    o: z.enum(SORT_ORDER),
    v: z.union([z.number(), z.string()]),
    n: z.number().int(),
  })
  .refine((c) => (c.s === 'title' || c.s === 'agent') === (typeof c.v === 'string'));

const invalid = (detail: string) => new EmulatorProblem(400, 'invalid_request', detail);

function encodeCursor(q: ListQuery, run: EmuRun): string {
  const cursor = { s: q.sortBy, o: q.sortOrder, v: sortValue(run, q.sortBy), n: run.seq };
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(raw: string): z.infer<typeof CursorSchema> {
  try {
    return CursorSchema.parse(JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')));
  } catch {
    throw invalid('cursor is not a cursor this service issued');
  }
}

function timestamp(params: URLSearchParams, name: string): number | undefined {
  const raw = params.get(name);
  if (raw === null) return undefined;
  const ms = RFC3339.test(raw) ? Date.parse(raw) : NaN;
  if (Number.isNaN(ms))
    throw invalid(`${name} must be an RFC 3339 timestamp, got ${JSON.stringify(raw)}`);
  return ms;
}

function oneOf<T extends string>(
  params: URLSearchParams,
  name: string,
  allowed: readonly T[],
): T | undefined {
  const raw = params.get(name);
  if (raw === null) return undefined;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw invalid(`${name} must be one of ${allowed.join(', ')}`);
  }
  return raw as T;
}

export function parseListQuery(params: URLSearchParams): ListQuery {
  checkListParams(params);
  const rawLimit = params.get('limit');
  const limit = rawLimit === null ? 20 : Number(rawLimit);
  if (!/^\d+$/.test(rawLimit ?? '20') || limit < 1 || limit > 500) {
    throw invalid('limit must be an integer from 1 to 500');
  }
  const sortBy = oneOf(params, 'sort_by', SORT_BY);
  const sortOrder = oneOf(params, 'sort_order', SORT_ORDER);
  const rawCursor = params.get('cursor');
  const cursor = rawCursor ? decodeCursor(rawCursor) : undefined;
  if (cursor && ((sortBy && sortBy !== cursor.s) || (sortOrder && sortOrder !== cursor.o))) {
    throw invalid('cursor belongs to a different sort_by/sort_order');
  }
  const str = (name: string) => params.get(name) ?? undefined;
  const states = params
    .getAll('state')
    .flatMap((s) => s.split(','))
    .filter((s) => s !== '');
  const metadata: [string, string][] = [];
  for (const [key, value] of params) {
    const m = /^metadata\[(.+)\]$/.exec(key);
    if (m?.[1]) metadata.push([m[1], value]);
  }
  return {
    limit,
    sortBy: cursor?.s ?? sortBy ?? 'updated_at',
    sortOrder: cursor?.o ?? sortOrder ?? 'desc',
    ...(cursor ? { after: { value: cursor.v, seq: cursor.n } } : {}),
    ...(states.length > 0 ? { states } : {}),
    name: str('name'),
    modelId: str('model_id'),
    creator: str('creator'),
    ...(params.has('source')
      ? { sources: params.getAll('source').flatMap((s) => s.split(',')) }
      : {}),
    createdAfter: timestamp(params, 'created_after'),
    createdBefore: timestamp(params, 'created_before'),
    updatedAfter: timestamp(params, 'updated_after'),
    q: params.get('q')?.toLowerCase() || undefined,
    executor: str('executor'),
    environmentId: str('environment_id'),
    skillSpec: str('skill_spec') ?? str('skill'),
    scheduleId: str('schedule_id'),
    ancestorRunId: str('ancestor_run_id'),
    artifactType: oneOf(params, 'artifact_type', ARTIFACT_TYPES),
    executionLocation: str('execution_location'),
    automationId: str('automation_id'),
    factoryOnly: params.get('factory_only') === 'true',
    ...(params.has('factory_uid') ? { factoryUids: params.getAll('factory_uid') } : {}),
    metadata,
  };
}

function sortValue(run: EmuRun, by: SortBy): SortValue {
  if (by === 'agent') return run.agentConfig?.skill_spec ?? NO_SKILL_KEY;
  return by === 'title' ? run.titleKey : by === 'created_at' ? run.createdAt : run.updatedAt;
}

/** Whether `ancestorId` is the run's parent, its parent's parent, and so on. */
function descendsFrom(store: RunStore, run: EmuRun, ancestorId: string): boolean {
  const seen = new Set<string>();
  for (let id = run.parentRunId; id !== undefined && !seen.has(id);) {
    if (id === ancestorId) return true;
    seen.add(id);
    id = store.get(id)?.parentRunId;
  }
  return false;
}

function matches(store: RunStore, run: EmuRun, q: ListQuery): boolean {
  const env = run.agentConfig?.environment_id;
  if (q.environmentId !== undefined) {
    if (q.environmentId === EMPTY_ENVIRONMENT ? env !== undefined : env !== q.environmentId)
      return false;
  }
  if (q.skillSpec !== undefined && run.agentConfig?.skill_spec !== q.skillSpec) return false;
  // The emulator has no schedules: a schedule filter matches nothing.
  if (q.scheduleId !== undefined) return false;
  if (q.executor !== undefined && (run.executor ?? run.creator).uid !== q.executor) return false;
  if (
    q.artifactType !== undefined &&
    !run.artifacts.some((a) => a.artifact_type === q.artifactType)
  )
    return false;
  if (q.ancestorRunId !== undefined && !descendsFrom(store, run, q.ancestorRunId)) return false;
  if (q.name !== undefined && run.agentConfig?.name !== q.name) return false;
  if (q.modelId !== undefined && run.agentConfig?.model_id !== q.modelId) return false;
  if (q.creator !== undefined && run.creator.uid !== q.creator) return false;
  if (q.sources !== undefined && !q.sources.includes(run.source)) return false;
  // Every emulated run executes on a cloud worker.
  if (q.executionLocation !== undefined && q.executionLocation !== 'REMOTE') return false;
  if (q.automationId !== undefined && run.metadata.automation_id !== q.automationId) return false;
  const factoryUid = factoryUidOf(run);
  if (q.factoryOnly && factoryUid === undefined) return false;
  if (q.factoryUids !== undefined && !q.factoryUids.includes(factoryUid ?? '')) return false;
  if (q.createdAfter !== undefined && !(run.createdAt > q.createdAfter)) return false;
  if (q.createdBefore !== undefined && !(run.createdAt < q.createdBefore)) return false;
  if (q.updatedAfter !== undefined && !(run.updatedAt > q.updatedAfter)) return false;
  if (q.q !== undefined && !run.searchText.includes(q.q)) return false;
  for (const [k, v] of q.metadata) if (run.metadata[k] !== v) return false;
  return true;
}

/** Negative when (va, na) comes first in the requested order; ties by creation order. */
function compareKeys(dir: number, va: SortValue, na: number, vb: SortValue, nb: number): number {
  if (va < vb) return -dir;
  if (va > vb) return dir;
  return (na - nb) * dir;
}

export interface RunPageResult {
  runs: EmuRun[];
  nextCursor?: string;
}

export function listRuns(store: RunStore, q: ListQuery): RunPageResult {
  const dir = q.sortOrder === 'asc' ? 1 : -1;
  const by = q.sortBy;
  const cmp = (a: EmuRun, b: EmuRun) =>
    compareKeys(dir, sortValue(a, by), a.seq, sortValue(b, by), b.seq);
  const keep = q.limit + 1;
  const best: EmuRun[] = [];
  const after = q.after;
  const candidates = q.states ? store.inStates(q.states) : store.all();
  for (const run of candidates) {
    if (after && compareKeys(dir, sortValue(run, by), run.seq, after.value, after.seq) <= 0)
      continue;
    const last = best[best.length - 1];
    if (best.length === keep && last && cmp(run, last) >= 0) continue;
    if (!matches(store, run, q)) continue;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cmp(best[mid] as EmuRun, run) < 0) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, run);
    if (best.length > keep) best.pop();
  }
  const page = best.slice(0, q.limit);
  const lastRun = page[page.length - 1];
  return {
    runs: page,
    ...(best.length > q.limit && lastRun ? { nextCursor: encodeCursor(q, lastRun) } : {}),
  };
}
