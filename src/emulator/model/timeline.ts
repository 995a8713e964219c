/**
 * A run's setup and lifecycle events, derived from its history on the emulator's clock:
 * created, claimed, the container ready halfway through CLAIMED, the session and the agent
 * started with INPROGRESS, and how each execution ended.
 */
import type { EmuRun, EmulatorTimings } from './types.js';

const EVENT_BY_STATE: Record<string, string[]> = {
  CLAIMED: ['oz_run_claimed'],
  INPROGRESS: ['shared_session_started', 'agent_started'],
  SUCCEEDED: ['oz_run_done'],
  BLOCKED: ['oz_run_blocked'],
  CANCELLED: ['oz_run_cancelled'],
  FAILED: ['oz_run_failed'],
  ERROR: ['oz_run_errored'],
};

export function timelineOf(
  run: EmuRun,
  timings: EmulatorTimings,
  now: number,
): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  let execution = 0;
  const add = (type: string, at: number) => {
    if (at > now) return;
    events.push({
      event_uuid: `${run.runId}-e${events.length}`,
      run_id: run.runId,
      execution_id: execution,
      event_type: type,
      occurred_at: new Date(at).toISOString(),
    });
  };
  run.history.forEach((entry, i) => {
    if (entry.state === 'QUEUED') {
      if (i > 0) execution += 1;
      if (i === 0) add('oz_run_created', entry.at);
      return;
    }
    for (const type of EVENT_BY_STATE[entry.state] ?? []) add(type, entry.at);
    if (entry.state === 'CLAIMED') {
      const next = run.history[i + 1]?.at ?? Infinity;
      const ready = entry.at + Math.floor(timings.claimedMs / 2);
      if (ready < next) add('worker_container_ready', ready);
    }
  });
  return events;
}
