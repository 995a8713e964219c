/**
 * The wire shape of a run (RunItem). It shares nested objects with the store: serialize it
 * at once, or clone it (the in-process API does) before handing it out.
 */
import type { RunItem } from '../../agent/schemas.js';
import { factoryUidOf } from './factory-item.js';
import type { EmuRun } from './types.js';
import { requestUsage } from './usage.js';

const iso = (ms: number): string => new Date(ms).toISOString();

/** ISO 8601 duration in whole seconds, as the service sends it: PT0S, PT4S, PT1M5S, PT2H0M3S. */
export function isoDuration(ms: number): string {
  const totalSeconds = Math.round(Math.max(0, ms) / 1000);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  let out = 'PT';
  if (hours > 0) out += `${hours}H`;
  if (hours > 0 || minutes > 0) out += `${minutes}M`;
  return `${out}${seconds}S`;
}

export function sessionLink(url: string, run: EmuRun): string {
  return `${url}/sessions/${run.sessionId}`;
}

export function toRunItem(run: EmuRun, url: string): RunItem {
  return {
    run_id: run.runId,
    task_id: run.runId,
    title: run.title,
    prompt: run.prompt,
    state: run.state,
    created_at: iso(run.createdAt),
    updated_at: iso(run.updatedAt),
    started_at: run.startedAt === undefined ? null : iso(run.startedAt),
    ...(run.runTimeMs === undefined ? {} : { run_time: isoDuration(run.runTimeMs) }),
    // Always present: null while the run is live (and after a follow-up restarts it).
    finished_at: run.finishedAt === undefined ? null : iso(run.finishedAt),
    session_id: run.sessionId,
    session_link: sessionLink(url, run),
    ...(run.agentConfig ? { agent_config: run.agentConfig } : {}),
    creator: { ...run.creator },
    ...(run.executor ? { executor: { ...run.executor } } : {}),
    source: run.source,
    ...(run.statusMessage ? { status_message: run.statusMessage } : {}),
    artifacts: run.artifacts,
    ...(run.triggerUrl ? { trigger_url: run.triggerUrl } : {}),
    metadata: run.metadata,
    conversation_id: run.conversationId,
    ...(run.parentRunId ? { parent_run_id: run.parentRunId } : {}),
    // The top of the orchestration tree: the run itself when it has no parent.
    root_run_id: run.rootRunId ?? run.runId,
    is_run_type_cancellable: run.cancellable,
    ...(run.debugUntil === undefined ? {} : { debug_agent_available: true }),
    execution_location: 'REMOTE',
    ...(factoryUidOf(run) ? { factory_uid: factoryUidOf(run) } : {}),
    ...(run.usage ? { request_usage: requestUsage(run.usage) } : {}),
    scope: { ...run.scope },
  };
}
