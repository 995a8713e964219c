/**
 * GET /agent/runs (listRuns): the query as it arrives on the wire (every value a string;
 * repeatable parameters as arrays; `metadata[key]=value` pairs gathered into `metadata`) and
 * the page answered. `source` repeats and `task_status`, `automation_id`, `factory_only` and
 * `factory_uid` exist per the newest SDK.
 */
import { z } from 'zod';
import { DateTime, PageInfo, RunExecutionLocation, RunSourceType, RunState } from './common.js';
import { RunItem } from './run-item.js';

const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/)
    .refine((s) => Number(s) >= min && Number(s) <= max, `an integer from ${min} to ${max}`);

export const ListRunsQuery = z.strictObject({
  limit: integer(1, 500).optional(),
  cursor: z.string().min(1).optional(),
  sort_by: z.enum(['updated_at', 'created_at', 'title', 'agent']).optional(),
  sort_order: z.enum(['asc', 'desc']).optional(),
  state: z.array(RunState).optional(),
  name: z.string().optional(),
  model_id: z.string().optional(),
  creator: z.string().optional(),
  executor: z.string().optional(),
  source: z.array(RunSourceType).optional(),
  execution_location: RunExecutionLocation.optional(),
  created_after: DateTime.optional(),
  created_before: DateTime.optional(),
  updated_after: DateTime.optional(),
  environment_id: z.string().optional(),
  skill: z.string().optional(),
  skill_spec: z.string().optional(),
  schedule_id: z.string().optional(),
  ancestor_run_id: z.string().optional(),
  metadata: z
    .record(z.string(), z.string())
    .refine((m) => Object.keys(m).length <= 5, 'at most 5 pairs')
    .optional(),
  artifact_type: z
    .enum(['PLAN', 'PULL_REQUEST', 'SCREENSHOT', 'FILE', 'EXTERNAL_REFERENCE'])
    .optional(),
  q: z.string().optional(),
  task_status: z
    .array(z.enum(['running', 'failed', 'blocked', 'cancelled', 'complete']))
    .optional(),
  automation_id: z.string().optional(),
  factory_only: z.enum(['true', 'false']).optional(),
  factory_uid: z.array(z.string()).optional(),
});

/** Parameters that may repeat; every other one must appear at most once. */
export const REPEATABLE_LIST_PARAMS = new Set(['state', 'source', 'task_status', 'factory_uid']);

export const ListRunsResponse = z.strictObject({
  runs: z.array(RunItem),
  page_info: PageInfo,
});
