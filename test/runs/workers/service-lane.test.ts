/**
 * The service lane wraps the agent service the use cases call: every member of the port, the
 * optional reads included, must reach the service through it (a member it drops reads as
 * "the service has no such endpoint": the whole plan went missing that way).
 */
import { describe, expect, it } from 'vitest';
import type { AgentService } from '../../../src/core/ports/index.js';
import { createServiceLane } from '../../../src/runs/workers/service-lane.js';

describe('the service lane', () => {
  it('passes every member of the agent service through, the optional ones included', async () => {
    const called: string[] = [];
    const answer =
      (name: string) =>
      (..._args: unknown[]): Promise<never> => {
        called.push(name);
        return Promise.resolve(name as never);
      };
    // Required<>: a member added to the port must be added here, and then to the lane.
    const agent: Required<AgentService> = {
      createRun: answer('createRun'),
      listRuns: answer('listRuns'),
      getRun: answer('getRun'),
      sendFollowup: answer('sendFollowup'),
      cancelRun: answer('cancelRun'),
      interruptRun: answer('interruptRun'),
      listFactories: answer('listFactories'),
      dispatchToFactory: answer('dispatchToFactory'),
      findRunByRequest: answer('findRunByRequest'),
      getConversation: answer('getConversation'),
      getTimeline: answer('getTimeline'),
      getArtifact: answer('getArtifact'),
    };
    const lane = createServiceLane(agent, { concurrency: 2, pausedMs: () => 0 });
    expect(Object.keys(lane).sort()).toEqual(Object.keys(agent).sort());
    for (const [name, call] of Object.entries(lane)) {
      await expect((call as (...a: unknown[]) => Promise<unknown>)('x', {})).resolves.toBe(name);
    }
    expect(called.sort()).toEqual(Object.keys(agent).sort());
  });

  it('leaves out an optional read the service does not have', () => {
    const { getArtifact: _dropped, ...rest } = {} as Required<AgentService>;
    const lane = createServiceLane(rest as AgentService, { concurrency: 1, pausedMs: () => 0 });
    expect('getArtifact' in lane).toBe(false);
  });
});
