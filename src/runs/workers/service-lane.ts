/**
 * The service lane: the triggers' calls to the Agent Run Service, at most `concurrency` at
 * once, and none while the service asked the relay to slow down (a 429, a create answered
 * `at_capacity`). A trigger in hand waits here only after its 👀 and "Starting…" were queued,
 * so a slow or rate-limited service delays runs, never the first sign: the inbox's own
 * concurrency (triggers in hand) is apart from this one
 * (docs/decisions/first-sign-lane.md).
 */
import type { AgentService } from '../../core/ports/index.js';

export interface ServiceLaneOptions {
  /** Calls in flight at once. */
  concurrency: number;
  /** How much longer the service asked to be left alone (ms; 0 or less: not). */
  pausedMs(): number;
}

/** The longest one look at a pause sleeps (the pause may be extended meanwhile). */
const PAUSE_STEP_MS = 100;

const pause = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.min(ms, PAUSE_STEP_MS)));

/** A counting semaphore, first come first served. */
function createSlots(size: number): { take(): Promise<void>; give(): void } {
  let free = size;
  const waiting: (() => void)[] = [];
  return {
    async take() {
      if (free > 0) {
        free -= 1;
        return;
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    },
    give() {
      const next = waiting.shift();
      if (next) next();
      else free += 1;
    },
  };
}

export function createServiceLane(agent: AgentService, options: ServiceLaneOptions): AgentService {
  const slots = createSlots(Math.max(1, options.concurrency));
  async function inLane<T>(call: () => Promise<T>): Promise<T> {
    for (let ms = options.pausedMs(); ms > 0; ms = options.pausedMs()) await pause(ms);
    await slots.take();
    try {
      // A pause asked for while this call waited for its slot holds it too.
      for (let ms = options.pausedMs(); ms > 0; ms = options.pausedMs()) await pause(ms);
      return await call();
    } finally {
      slots.give();
    }
  }
  const { getConversation, getTimeline, getArtifact } = agent;
  return {
    createRun: (request, o) => inLane(() => agent.createRun(request, o)),
    listRuns: (query, o) => inLane(() => agent.listRuns(query, o)),
    getRun: (runId, o) => inLane(() => agent.getRun(runId, o)),
    sendFollowup: (runId, body, o) => inLane(() => agent.sendFollowup(runId, body, o)),
    cancelRun: (runId, o) => inLane(() => agent.cancelRun(runId, o)),
    interruptRun: (runId, o) => inLane(() => agent.interruptRun(runId, o)),
    listFactories: (query, o) => inLane(() => agent.listFactories(query, o)),
    dispatchToFactory: (uid, body, o) => inLane(() => agent.dispatchToFactory(uid, body, o)),
    findRunByRequest: (requestId, after) => inLane(() => agent.findRunByRequest(requestId, after)),
    ...(getConversation
      ? { getConversation: (runId, o) => inLane(() => getConversation.call(agent, runId, o)) }
      : {}),
    ...(getTimeline
      ? { getTimeline: (runId, o) => inLane(() => getTimeline.call(agent, runId, o)) }
      : {}),
    // A plan's Markdown (the whole plan, a click away) is read through the lane too.
    ...(getArtifact
      ? { getArtifact: (uid, o) => inLane(() => getArtifact.call(agent, uid, o)) }
      : {}),
  };
}
