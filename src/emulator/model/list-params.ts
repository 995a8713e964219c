/**
 * The parameters GET /agent/runs takes, as published (with what the newest SDK adds). A
 * parameter the service does not know, a single one given twice, a state or source outside
 * the published lists, or more than five metadata pairs is a 400 that names it: the emulator
 * never answers an unknown filter with every run, which would hide a client's typo.
 */
import { KNOWN_STATES } from '../../core/run.js';
import { EmulatorProblem } from '../http/problem.js';

/** Parameters that may repeat (each value matches: OR). */
export const REPEATABLE = new Set(['state', 'source', 'task_status', 'factory_uid']);

const SINGLE = new Set([
  'limit',
  'cursor',
  'sort_by',
  'sort_order',
  'name',
  'model_id',
  'creator',
  'executor',
  'execution_location',
  'created_after',
  'created_before',
  'updated_after',
  'environment_id',
  'skill',
  'skill_spec',
  'schedule_id',
  'ancestor_run_id',
  'artifact_type',
  'q',
  'automation_id',
  'factory_only',
]);

export const RUN_SOURCES = [
  'LINEAR',
  'API',
  'SLACK',
  'TEAMS',
  'LOCAL',
  'SCHEDULED_AGENT',
  'WEB_APP',
  'GITHUB_ACTION',
  'CLOUD_MODE',
  'CLI',
  'JIRA',
  'SELF_IMPROVEMENT',
  'GITHUB_WEBHOOK',
  'GITLAB_WEBHOOK',
  'AZURE_DEVOPS_WEBHOOK',
  'AUTOFIX',
  'RUN_SCORER',
  'ORCHESTRATION',
  'BENCHMARK_TRIAL',
  'CREATE_BENCHMARK_TASK',
  'CUSTOM_WEBHOOK',
] as const;

/** The published limit on `metadata[key]=value` pairs in one request. */
export const MAX_METADATA_PAIRS = 5;

const invalid = (detail: string) => new EmulatorProblem(400, 'invalid_request', detail);

function checkValues(params: URLSearchParams, name: string, allowed: readonly string[]): void {
  for (const raw of params.getAll(name)) {
    for (const value of raw.split(',')) {
      if (value !== '' && !allowed.includes(value)) {
        throw invalid(`${name} ${JSON.stringify(value)} is not one of ${allowed.join(', ')}`);
      }
    }
  }
}

/** Throws the 400 for the first parameter the published description does not allow. */
export function checkListParams(params: URLSearchParams): void {
  let metadataPairs = 0;
  for (const name of new Set(params.keys())) {
    if (/^metadata\[[^\]]+\]$/.test(name)) {
      metadataPairs += 1;
      if (params.getAll(name).length > 1) throw invalid(`${name} is given more than once`);
      continue;
    }
    if (REPEATABLE.has(name)) continue;
    if (!SINGLE.has(name)) throw invalid(`unknown query parameter ${JSON.stringify(name)}`);
    if (params.getAll(name).length > 1) throw invalid(`${name} is given more than once`);
  }
  if (metadataPairs > MAX_METADATA_PAIRS) {
    throw invalid(`at most ${MAX_METADATA_PAIRS} metadata pairs per request, got ${metadataPairs}`);
  }
  checkValues(params, 'state', KNOWN_STATES);
  checkValues(params, 'source', RUN_SOURCES);
  checkValues(params, 'execution_location', ['LOCAL', 'REMOTE']);
  checkValues(params, 'factory_only', ['true', 'false']);
}
