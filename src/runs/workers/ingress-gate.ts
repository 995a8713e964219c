/**
 * Ingress first. The relay acknowledges a Slack/GitHub request only once its trigger is in the
 * inbox, and the workers (inbox, outbox, tracker) share the event loop with those requests:
 * above some arrival rate, handling triggers takes more CPU than there is, and if the workers
 * kept claiming, every acknowledgement would queue behind their work. So while requests arrive
 * in a burst, the workers claim nothing new; everything queued is carried out at full speed
 * once the burst ends.
 *
 * A burst is decided by the arrival rate alone (`burstPerSecond`, counted over short windows),
 * not by how busy the loop is: the loop is busy with the workers' own work too. Work is never
 * starved: a burst that goes on past `maxBurstMs` is sustained load rather than a burst, and
 * the workers go on at full speed until a window below the rate re-arms the gate.
 *
 * Outside a burst, each worker step still begins on a new turn of the event loop, so requests
 * that arrived meanwhile are read first: steps whose store calls finish at once (SQLite) would
 * otherwise run back to back without the loop ever reading the network.
 *
 * The engine makes the one gate (engine.ts); the HTTP ingress routes report arrivals through
 * `engine.noteArrival()`; the claim loop (pump.ts) and the tracker's loop wait on `clear()`.
 * At shutdown the HTTP server closes before the workers stop, so arrivals cease and a burst
 * ends within two windows: a worker waiting here does not hold the shutdown up.
 */
import { performance } from 'node:perf_hooks';

export interface IngressGate {
  /** A request to an ingress route arrived. */
  arrived(): void;
  /** Requests are arriving in a burst that has not yet gone on past `maxBurstMs`. */
  busy(): boolean;
  /** Resolves once not busy, on a later turn of the event loop. */
  clear(): Promise<void>;
}

/** What a worker waits on before it claims. */
export type ClaimGate = Pick<IngressGate, 'clear'>;

export interface IngressGateOptions {
  /** Arrivals per second that make a burst (at least 1). */
  burstPerSecond: number;
  /** Longest a burst holds the workers back. Default 30 s. */
  maxBurstMs?: number;
  /** Counting window. Default 250 ms. */
  windowMs?: number;
  /** The time in milliseconds (the engine passes its clock). Default `performance.now`. */
  now?: () => number;
}

export function createIngressGate(options: IngressGateOptions): IngressGate {
  const windowMs = options.windowMs ?? 250;
  const maxBurstMs = options.maxBurstMs ?? 30_000;
  const now = options.now ?? (() => performance.now());
  /** Arrivals in one window that make it part of a burst. */
  const burst = Math.max(1, Math.round((options.burstPerSecond * windowMs) / 1000));
  /** How often a waiting worker looks again. */
  const pollMs = Math.max(5, Math.round(windowMs / 10));

  let window = Math.floor(now() / windowMs);
  let arrivals = 0;
  let lastWindowArrivals = 0;
  /** When the current run of burst windows began; undefined: none has closed yet. */
  let burstSince: number | undefined;

  /** Close the windows that ended before `t` (counted lazily: no timer to stop). */
  function roll(t: number): void {
    const current = Math.floor(t / windowMs);
    if (current === window) return;
    if (arrivals >= burst && current === window + 1) {
      burstSince ??= window * windowMs;
      lastWindowArrivals = arrivals;
    } else {
      // A window below the rate (or an empty one in between) ends the burst.
      burstSince = undefined;
      lastWindowArrivals = current === window + 1 ? arrivals : 0;
    }
    window = current;
    arrivals = 0;
  }

  function busy(): boolean {
    const t = now();
    roll(t);
    return (
      Math.max(arrivals, lastWindowArrivals) >= burst &&
      (burstSince === undefined || t - burstSince < maxBurstMs)
    );
  }

  return {
    arrived() {
      roll(now());
      arrivals += 1;
    },
    busy,
    async clear() {
      while (busy()) await new Promise((resolve) => setTimeout(resolve, pollMs));
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}
