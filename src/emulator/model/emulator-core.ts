/**
 * What the emulator does, independent of HTTP: create, follow up, cancel, force states,
 * seed. The contract routes, the admin routes and the in-process API all call this.
 */
import { isBlockedState, isEndedState, type CreateRunRequest } from '../../agent/schemas.js';
import { randomUUID } from 'node:crypto';
import { buildRun } from './new-run.js';
import { createDebugWindows } from './debug-window.js';
import { EmulatorProblem } from '../http/problem.js';
import { interruptRun } from './interrupt.js';
import type { RunStore } from './run-store.js';
import {
  isMarkedNonCancellable,
  parseScript,
  withPhraseMarkers,
  type StateMachine,
} from './state-machine.js';
import type { EmuRun, EmulatorFactory, Principal, SeedOptions } from './types.js';

export interface CreateOptions {
  executor?: Principal;
  creator?: Principal;
  triggerUrl?: string;
  state?: string;
  manual?: boolean;
  createdAt?: number;
}

export interface EmulatorCore {
  store: RunStore;
  machine: StateMachine;
  factories: readonly EmulatorFactory[];
  /** The emulator's origin, e.g. http://127.0.0.1:8787 (session links point here). */
  url(): string;
  /** Apply due transitions and return the clock's now. */
  now(): number;
  createRun(req: CreateRunRequest, opts?: CreateOptions): EmuRun;
  /** Records the follow-up and answers its id. */
  followup(run: EmuRun, message: string, mode?: string): string;
  /** Throws the contract's problem when the run cannot be cancelled. */
  cancel(run: EmuRun): void;
  /** Stops the current turn (the run waits for a follow-up); throws the contract's problem. */
  interrupt(run: EmuRun): void;
  advance(runId: string, state?: string): EmuRun | undefined;
  setState(runId: string, state: string): EmuRun | undefined;
  seed(n: number, opts?: SeedOptions): string[];
  /** FAILED in environment setup, with a debug window of `windowMs` (debug-window.ts). */
  failSetup(runId: string, windowMs: number): EmuRun | undefined;
  /** Whether a follow-up to `run` now would go to its debugging session. */
  inDebugWindow(run: EmuRun): boolean;
}

export interface CoreDeps {
  store: RunStore;
  machine: StateMachine;
  factories: readonly EmulatorFactory[];
  clock: { now(): number };
  url(): string;
  /** Words that script a run as markers do (EmulatorOptions.phrases). */
  phrases?: Readonly<Record<string, string>>;
}

export function createEmulatorCore(deps: CoreDeps): EmulatorCore {
  const { store, machine, clock } = deps;
  const debugWindows = createDebugWindows();

  function now(): number {
    const t = clock.now();
    machine.catchUp(t);
    debugWindows.expire(t);
    return t;
  }

  function createRun(req: CreateRunRequest, opts: CreateOptions = {}): EmuRun {
    const at = now();
    const parent = req.parent_run_id ? store.get(req.parent_run_id) : undefined;
    const run = buildRun(req, {
      ...(parent ? { parent } : {}),
      seq: store.nextSeq(),
      now: opts.createdAt ?? at,
      ...(opts.creator ? { creator: opts.creator } : {}),
      ...(opts.executor ? { executor: opts.executor } : {}),
      ...(opts.triggerUrl ? { triggerUrl: opts.triggerUrl } : {}),
    });
    if (deps.phrases) {
      const scripted = withPhraseMarkers(req.prompt ?? '', deps.phrases);
      run.script = parseScript(scripted, req.mode);
      run.cancellable = !isMarkedNonCancellable(scripted);
    }
    store.insert(run);
    run.manual = opts.manual ?? false;
    if (opts.state && opts.state !== 'QUEUED')
      machine.enter(run, opts.state, Math.max(at, run.createdAt));
    machine.schedule(run, Math.max(at, run.createdAt));
    return run;
  }

  function force(runId: string, state: string | undefined, hold: boolean): EmuRun | undefined {
    const at = now();
    const run = store.get(runId);
    if (!run) return undefined;
    const target = state ?? machine.nextState(run);
    if (target === undefined) return run;
    machine.enter(run, target, at);
    run.manual = hold;
    machine.schedule(run, at);
    return run;
  }

  return {
    store,
    machine,
    factories: deps.factories,
    url: deps.url,
    now,
    createRun,
    followup(run, message, mode) {
      const at = now();
      const followupId = randomUUID();
      store.followups.push({
        followupId,
        runId: run.runId,
        message,
        ...(mode ? { mode } : {}),
        at,
      });
      // In a setup failure's debug window the message goes to a debugging agent: the run
      // stays FAILED (the published rule), only the window lasts longer.
      if (debugWindows.isOpen(run, at)) {
        debugWindows.touch(run, at);
        return followupId;
      }
      if (isEndedState(run.state) || isBlockedState(run.state)) {
        // Changes asked for in plan mode are what the revised plan answers (plan.ts).
        if (mode === 'plan') run.planChanges = [...(run.planChanges ?? []), message];
        machine.restart(run, parseScript(withPhraseMarkers(message, deps.phrases), mode), at);
      }
      return followupId;
    },
    cancel(run) {
      const at = now();
      // BLOCKED waits for input but is not terminal: it can be cancelled (published rule).
      if (isEndedState(run.state)) {
        throw new EmulatorProblem(
          400,
          'invalid_request',
          `run ${run.runId} is ${run.state} and cannot be cancelled`,
          {
            retryable: false,
          },
        );
      }
      if (!run.cancellable) {
        throw new EmulatorProblem(
          422,
          'operation_not_supported',
          'this run type cannot be cancelled',
          {
            retryable: false,
          },
        );
      }
      if (run.state === 'PENDING') {
        throw new EmulatorProblem(409, 'conflict', 'the run is being assigned; try again shortly', {
          retryable: true,
        });
      }
      machine.enter(run, 'CANCELLED', at);
      machine.schedule(run, at);
    },
    failSetup(runId, windowMs) {
      if (!Number.isFinite(windowMs) || windowMs <= 0)
        throw new RangeError(`debug window must be > 0 ms, got ${windowMs}`);
      const run = force(runId, 'FAILED', true);
      if (run) debugWindows.open(run, now(), windowMs);
      return run;
    },
    inDebugWindow: (run) => debugWindows.isOpen(run, now()),
    interrupt(run) {
      interruptRun(machine, run, now());
    },
    advance: (runId, state) => force(runId, state, false),
    setState: (runId, state) => force(runId, state, true),
    seed(n, opts = {}) {
      if (!Number.isInteger(n) || n < 0)
        throw new RangeError(`seed count must be a whole number, got ${n}`);
      const at = now();
      const spread = opts.spreadMs ?? 1000;
      const ids: string[] = [];
      for (let i = 0; i < n; i++) {
        const prompt =
          typeof opts.prompt === 'function'
            ? opts.prompt(i)
            : (opts.prompt ?? `Seeded run ${i + 1}`);
        const metadata = typeof opts.metadata === 'function' ? opts.metadata(i) : opts.metadata;
        const run = createRun(
          {
            prompt,
            ...(metadata ? { metadata } : {}),
            ...(opts.config ? { config: opts.config } : {}),
          },
          {
            createdAt: at - (n - 1 - i) * spread,
            ...(opts.state ? { state: opts.state } : {}),
            manual: opts.manual ?? false,
          },
        );
        ids.push(run.runId);
      }
      return ids;
    },
  };
}
