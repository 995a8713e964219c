/**
 * Injected faults for contract requests: answer with an error status, destroy the socket,
 * or add latency. Rules are consumed in the order they were added. Apart from them, a count
 * of created runs that answer `at_capacity: true` (a full service that still took the run).
 */
import { EmulatorProblem, REFUSAL_CODES, codeForStatus } from '../http/problem.js';
import type { EmulatorProblemCode } from '../http/problem.js';
import type { DropOptions, FailOptions, FaultControls, FaultRule, FaultSnapshot } from './types.js';

export type FaultDecision =
  | { kind: 'fail'; problem: EmulatorProblem; processed: boolean }
  | { kind: 'drop'; afterProcessing: boolean };

export interface Faults extends FaultControls {
  /** The fault for a request to `route`, consuming one use of the first matching rule. */
  take(route: string): FaultDecision | undefined;
  latencyMs(): number;
  /** Whether the run being created answers `at_capacity: true` (consumes one use). */
  takeAtCapacity(): boolean;
  /** The off-spec patch of a run, if one was set. */
  offSpecPatch(runId: string): Record<string, unknown> | undefined;
  isMetadataFilterUnavailable(): boolean;
}

const DEFAULT_RETRY_AFTER_SECONDS = 1;

/** The named code when it is one the emulator knows for that status, else the default. */
function problemCode(status: number, errorCode: string | undefined): EmulatorProblemCode {
  if (errorCode === undefined) return codeForStatus(status);
  if (!(REFUSAL_CODES as readonly string[]).includes(errorCode)) {
    throw new RangeError(`unknown fault error code ${errorCode}`);
  }
  return errorCode as EmulatorProblemCode;
}

function checkCount(n: number): void {
  if (!Number.isInteger(n) || n < 0)
    throw new RangeError(`fault count must be a whole number, got ${n}`);
}

export function createFaults(): Faults {
  let rules: FaultRule[] = [];
  let latency = 0;
  let atCapacity = 0;
  let offSpecRuns = new Map<string, Record<string, unknown>>();
  let metadataFilterOff = false;

  function toProblem(rule: FaultRule): EmulatorProblem {
    const status = rule.status ?? 500;
    const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
    const retryAfter =
      rule.retryAfterSeconds ??
      (status === 429 || status === 503 ? DEFAULT_RETRY_AFTER_SECONDS : undefined);
    return new EmulatorProblem(
      status,
      problemCode(status, rule.errorCode),
      `injected fault: ${status}${rule.errorCode ? ` ${rule.errorCode}` : ''}`,
      {
        retryable,
        ...(retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter }),
        ...(rule.provider ? { provider: rule.provider } : {}),
        ...(rule.authUrl ? { authUrl: rule.authUrl } : {}),
      },
    );
  }

  return {
    failNext(n: number, status: number, opts: FailOptions = {}) {
      checkCount(n);
      if (!Number.isInteger(status) || status < 400 || status > 599) {
        throw new RangeError(`fault status must be 400-599, got ${status}`);
      }
      problemCode(status, opts.errorCode);
      if (n > 0) rules.push({ kind: 'fail', remaining: n, status, ...opts });
    },
    dropNext(n: number, opts: DropOptions = {}) {
      checkCount(n);
      if (n > 0) rules.push({ kind: 'drop', remaining: n, ...opts });
    },
    setLatency(ms: number) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`latency must be >= 0, got ${ms}`);
      latency = ms;
    },
    atCapacityNext(n: number) {
      checkCount(n);
      atCapacity += n;
    },
    offSpec(runId: string, patch: Record<string, unknown>) {
      offSpecRuns.set(runId, { ...(offSpecRuns.get(runId) ?? {}), ...patch });
    },
    metadataFilterUnavailable(on: boolean) {
      metadataFilterOff = on;
    },
    clear() {
      rules = [];
      latency = 0;
      atCapacity = 0;
      offSpecRuns = new Map();
      metadataFilterOff = false;
    },
    snapshot(): FaultSnapshot {
      return {
        latencyMs: latency,
        metadataFilterUnavailable: metadataFilterOff,
        offSpecRuns: [...offSpecRuns.keys()],
        atCapacityNext: atCapacity,
        rules: rules.map((r) => ({ ...r })),
      };
    },
    latencyMs: () => latency,
    offSpecPatch: (runId) => offSpecRuns.get(runId),
    isMetadataFilterUnavailable: () => metadataFilterOff,
    takeAtCapacity() {
      if (atCapacity === 0) return false;
      atCapacity -= 1;
      return true;
    },
    take(route) {
      const rule = rules.find(
        (r) => r.remaining > 0 && (r.route === undefined || r.route === route),
      );
      if (!rule) return undefined;
      rule.remaining -= 1;
      rules = rules.filter((r) => r.remaining > 0);
      return rule.kind === 'fail'
        ? { kind: 'fail', problem: toProblem(rule), processed: rule.processed ?? false }
        : { kind: 'drop', afterProcessing: rule.afterProcessing ?? false };
    },
  };
}
