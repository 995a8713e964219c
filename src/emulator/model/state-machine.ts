/**
 * Runs move QUEUED -> PENDING -> CLAIMED -> INPROGRESS -> outcome on the injected clock.
 * Each run has at most one live entry in a due-queue; `catchUp(now)` applies everything due,
 * each at its exact due time, so observed states and timestamps never depend on tick lag.
 */
import { isEndedState } from '../../agent/schemas.js';
import { createDueQueue } from './due-queue.js';
import type { RunStore } from './run-store.js';
import type { EmuRun, EmulatorTimings, Script } from './types.js';
import { growUsage } from './usage.js';
import { PLAN_WAITING, writePlan } from './plan.js';

/**
 * Every marker that scripts a run (README.md's table): outcomes and timings here, the
 * conversation's in conversation.ts. A picture or a demo meant to read as a team's never
 * shows one (the gallery's test reads this list).
 */
export const PROMPT_MARKERS = [
  '[fail]',
  '[error]',
  '[block]',
  '[approval]',
  '[slow]',
  '[pending]',
  '[nocancel]',
  '[noconvo]',
  '[harness]',
] as const;

/** The text with the markers its scripting phrases stand for (EmulatorOptions.phrases). */
export function withPhraseMarkers(
  text: string,
  phrases: Readonly<Record<string, string>> | undefined,
): string {
  if (!phrases) return text;
  const lower = text.toLowerCase();
  const markers = Object.entries(phrases)
    .filter(([words]) => words !== '' && lower.includes(words.toLowerCase()))
    .map(([, marker]) => marker);
  return markers.length === 0 ? text : `${text} ${markers.join(' ')}`;
}

/**
 * Markers that script an execution, matched case-insensitively in a prompt or follow-up;
 * `mode: plan` (on the create or the follow-up) makes an execution that would succeed write
 * a plan and wait for its approval instead (plan.ts).
 */
export function parseScript(text: string, mode?: string): Script {
  const t = text.toLowerCase();
  const outcome = t.includes('[error]')
    ? 'ERROR'
    : t.includes('[fail]')
      ? 'FAILED'
      : t.includes('[block]') || t.includes('[approval]')
        ? 'BLOCKED'
        : 'SUCCEEDED';
  const plan = mode === 'plan' && outcome === 'SUCCEEDED';
  return {
    outcome: plan ? 'BLOCKED' : outcome,
    ...(plan ? { plan: true } : {}),
    slow: t.includes('[slow]'),
    holdPending: t.includes('[pending]'),
    ...(outcome === 'BLOCKED' && t.includes('[approval]') ? { approval: true } : {}),
  };
}

export function isMarkedNonCancellable(text: string): boolean {
  return text.toLowerCase().includes('[nocancel]');
}

export interface StateMachine {
  /** Forget queued transitions of `run` and queue its next one, timed from `from`. */
  schedule(run: EmuRun, from: number): void;
  /** Apply every transition due at `now`. */
  catchUp(now: number): void;
  /** The next state of the run's script, if any. */
  nextState(run: EmuRun): string | undefined;
  /** Enter `state` at `at`, with its side effects (timestamps, status message, artifacts). */
  enter(run: EmuRun, state: string, at: number): void;
  /** A new execution (follow-up on an ended or BLOCKED run): QUEUED again, then onwards. */
  restart(run: EmuRun, script: Script, at: number): void;
}

export interface StateMachineDeps {
  store: RunStore;
  timings: EmulatorTimings;
  onTransition?: (run: EmuRun, from: string) => void;
  /** The emulator's origin (a plan's link points at the run's session page). */
  url?: () => string;
}

const STATUS_BY_OUTCOME: Record<
  string,
  { message: string; error_code?: string; retryable?: boolean }
> = {
  // The agent gave up: no platform error, so no `error_code` (the published list has none
  // for it).
  FAILED: {
    message: 'The agent could not complete the task: the tests it wrote keep failing.',
    retryable: false,
  },
  ERROR: {
    message: 'The agent environment stopped unexpectedly.',
    error_code: 'internal_error',
    retryable: true,
  },
  BLOCKED: {
    message: 'The agent needs your input: which approach should it take? Reply to continue.',
  },
  CANCELLED: { message: 'The run was cancelled.' },
};

/** A run BLOCKED on an approval (`[approval]`): what it waits for. */
export const APPROVAL = {
  message: 'Waiting for approval to run `git push --force-with-lease`. Reply to approve.',
};

function slug(title: string): string {
  const s = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return s || 'run';
}

export function createStateMachine(deps: StateMachineDeps): StateMachine {
  const { store, timings } = deps;
  const queue = createDueQueue();
  let pullRequests = 0;

  function nextStep(run: EmuRun): { state: string; afterMs: number } | undefined {
    switch (run.state) {
      case 'QUEUED':
        return { state: 'PENDING', afterMs: timings.queuedMs };
      case 'PENDING':
        return {
          state: 'CLAIMED',
          afterMs: run.script.holdPending ? timings.slowRunMs : timings.pendingMs,
        };
      case 'CLAIMED':
        return { state: 'INPROGRESS', afterMs: timings.claimedMs };
      case 'INPROGRESS':
        return {
          state: run.script.outcome,
          afterMs: run.script.slow ? timings.slowRunMs : timings.runMs,
        };
      default:
        return undefined;
    }
  }

  function enter(run: EmuRun, state: string, at: number): void {
    const from = run.state;
    if (state === 'QUEUED') {
      run.statusMessage = undefined;
      run.finishedAt = undefined;
    }
    if (state === 'INPROGRESS') run.startedAt = at;
    if (state === 'INPROGRESS') growUsage(run, 'start');
    else if (from === 'INPROGRESS') {
      // The share of its scripted time the execution worked: a cancel at once costs little.
      const scripted = run.script.slow ? timings.slowRunMs : timings.runMs;
      const worked = run.startedAt === undefined ? 0 : at - run.startedAt;
      growUsage(run, 'stop', scripted > 0 ? worked / scripted : 1);
    }
    if (isEndedState(state)) {
      // run_time is cumulative: this execution's time on top of the earlier ones.
      const thisExecution = run.startedAt === undefined ? 0 : Math.max(0, at - run.startedAt);
      run.runTimeMs = run.earlierRunTimeMs + thisExecution;
      run.finishedAt = at;
    }
    const status =
      state === 'BLOCKED' && run.script.approval
        ? APPROVAL
        : state === 'BLOCKED' && run.script.plan
          ? PLAN_WAITING
          : STATUS_BY_OUTCOME[state];
    if (status) run.statusMessage = { ...status };
    if (state === 'BLOCKED' && run.script.plan) writePlan(run, at, deps.url?.() ?? '');
    if (state === 'SUCCEEDED') {
      run.statusMessage = undefined;
      if (!run.artifacts.some((a) => a.artifact_type === 'PULL_REQUEST')) {
        pullRequests += 1;
        run.artifacts.push({
          artifact_type: 'PULL_REQUEST',
          created_at: new Date(at).toISOString(),
          data: {
            url: `https://github.com/example/repo/pull/${pullRequests}`,
            branch: `agent/${slug(run.title)}`,
            // As the code host last reported it: a fresh pull request is open.
            status: 'open',
          },
        });
      }
    }
    store.setState(run, state, at);
    deps.onTransition?.(run, from);
  }

  function schedule(run: EmuRun, from: number): void {
    run.gen += 1;
    if (run.manual) return;
    const step = nextStep(run);
    if (step) queue.push({ at: from + step.afterMs, runId: run.runId, gen: run.gen });
  }

  return {
    schedule,
    enter,
    nextState: (run) => nextStep(run)?.state,
    catchUp(now) {
      for (let e = queue.popDue(now); e; e = queue.popDue(now)) {
        const run = store.get(e.runId);
        if (!run || run.gen !== e.gen) continue;
        const step = nextStep(run);
        if (!step) continue;
        enter(run, step.state, e.at);
        schedule(run, e.at);
      }
    },
    restart(run, script, at) {
      run.script = script;
      run.manual = false;
      run.startedAt = undefined;
      run.earlierRunTimeMs = run.runTimeMs ?? run.earlierRunTimeMs;
      enter(run, 'QUEUED', at);
      schedule(run, at);
    },
  };
}
