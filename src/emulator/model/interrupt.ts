/**
 * Interrupt (POST /agent/runs/{id}/interrupt): stops the agent's current turn and keeps the
 * run open. The emulator moves an executing run (CLAIMED or INPROGRESS) to BLOCKED, the state
 * that waits for a follow-up; the next follow-up starts a new execution as for any BLOCKED run.
 * A run with no turn running yet (QUEUED, PENDING) answers 409, one that already waits or has
 * ended answers 400, and a run not on the service's own harness (not cancellable) answers 422.
 */
import { isBlockedState, isEndedState } from '../../agent/schemas.js';
import { EmulatorProblem } from '../http/problem.js';
import type { StateMachine } from './state-machine.js';
import type { EmuRun } from './types.js';

export const INTERRUPTED_MESSAGE = 'The agent was interrupted. Send a follow-up to continue.';

export function interruptRun(machine: StateMachine, run: EmuRun, at: number): void {
  if (isEndedState(run.state) || isBlockedState(run.state)) {
    throw new EmulatorProblem(
      400,
      'invalid_request',
      `run ${run.runId} is ${run.state}: no turn is running to interrupt`,
      { retryable: false },
    );
  }
  if (!run.cancellable) {
    throw new EmulatorProblem(
      422,
      'operation_not_supported',
      'this run type cannot be interrupted',
      { retryable: false },
    );
  }
  if (run.state !== 'CLAIMED' && run.state !== 'INPROGRESS') {
    throw new EmulatorProblem(
      409,
      'conflict',
      `run ${run.runId} is ${run.state}: the agent has not started a turn yet`,
      { retryable: true },
    );
  }
  machine.enter(run, 'BLOCKED', at);
  run.statusMessage = { message: INTERRUPTED_MESSAGE };
  machine.schedule(run, at);
}
