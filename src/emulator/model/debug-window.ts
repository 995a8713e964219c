/**
 * The published debug window: a run that failed during environment setup keeps its session
 * reachable for a while. A follow-up in that window goes to a debugging agent inside the
 * retained session, and the run stays FAILED with its failure message and code unchanged;
 * activity pushes the window's end out. Once it closes, a follow-up continues the run as
 * usual (a new execution).
 */
import type { EmuRun } from './types.js';

export const SETUP_FAILURE_MESSAGE =
  'Environment setup failed: the setup command `npm ci` exited with status 1.';

export interface DebugWindows {
  /** Fail `run` in setup (the caller has put it in FAILED) and open its window. */
  open(run: EmuRun, at: number, windowMs: number): void;
  isOpen(run: EmuRun, at: number): boolean;
  /** A follow-up arrived in the window: a debugging turn runs, and the window lasts longer. */
  touch(run: EmuRun, at: number): void;
  /** Close the windows that ended by `at`, and those of runs that left FAILED. */
  expire(at: number): void;
}

export function createDebugWindows(): DebugWindows {
  const windows = new Map<string, { run: EmuRun; windowMs: number }>();

  function close(run: EmuRun): void {
    windows.delete(run.runId);
    run.debugUntil = undefined;
    if (run.statusMessage) {
      const {
        session_debug_until: _until,
        debug_agent_active: _active,
        ...rest
      } = run.statusMessage;
      run.statusMessage = rest;
    }
  }

  function publish(run: EmuRun, until: number, active: boolean): void {
    run.debugUntil = until;
    run.statusMessage = {
      ...(run.statusMessage ?? { message: SETUP_FAILURE_MESSAGE }),
      session_debug_until: new Date(until).toISOString(),
      ...(active ? { debug_agent_active: true } : {}),
    };
  }

  return {
    open(run, at, windowMs) {
      run.statusMessage = {
        message: SETUP_FAILURE_MESSAGE,
        error_code: 'environment_setup_failed',
        retryable: false,
      };
      windows.set(run.runId, { run, windowMs });
      publish(run, at + windowMs, false);
    },
    isOpen(run, at) {
      return windows.has(run.runId) && run.state === 'FAILED' && (run.debugUntil ?? 0) > at;
    },
    touch(run, at) {
      const entry = windows.get(run.runId);
      if (!entry) return;
      run.updatedAt = at;
      publish(run, at + entry.windowMs, true);
    },
    expire(at) {
      for (const { run } of windows.values()) {
        if (run.state !== 'FAILED' || (run.debugUntil ?? 0) <= at) close(run);
      }
    },
  };
}
