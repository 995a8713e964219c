/**
 * What the backends process (the Agent Run Service emulator, the fake Slack Web API and the
 * GitHub recorder, in one child process) answers over IPC. Shared by both sides.
 */
import type { EmulatorTimings } from '../../src/emulator/index.js';

export interface BackendUrls {
  /** The emulator's versioned root, for AGENT_API_URL. */
  agentBaseUrl: string;
  agentKey: string;
  /** For SLACK_API_URL (ends in /api/). */
  slackApiUrl: string;
  githubApiUrl: string;
  slackBotUserId: string;
  slackTeamId: string;
}

export interface SeededRun {
  runId: string;
  threadKey: string;
  platform: 'slack' | 'github';
  title: string;
  state: string;
  /** The service's updated_at (RFC 3339) at seeding. */
  updatedAt: string;
  createdAt: number;
  /** The status message's opaque ref id (`channel:ts` or `issue:<id>`). */
  statusRefId: string;
}

export interface StateChange {
  runId: string;
  state: string;
  /** The emulator's timestamp of the change (epoch ms). */
  at: number;
}

export interface TrackingDelays {
  /** Delay from each change to the receipt of the message showing it, per platform (ms). */
  slack: number[];
  github: number[];
  /** Changes whose message never arrived (and no later change superseded them). */
  missing: number;
  /** Changes overtaken by the run's next change before a message showed them. */
  superseded: number;
}

export interface FirstPosts {
  /** Slack thread_ts -> receipt time of the first chat.postMessage in that thread. */
  slack: [string, number][];
  /** `owner/repo#n` -> receipt time of the first comment on that issue. */
  github: [string, number][];
}

/** What a person saw first, per Slack thread (the mention's ts), and when runs were created. */
export interface FirstSigns {
  /** thread ts -> receipt time of the first 👀 (reactions.add `eyes`) on the mention. */
  seen: [string, number][];
  /** thread ts -> receipt time of the first chat.postMessage in the thread. */
  firstPost: [string, number][];
  /** thread ts -> when the emulator created the thread's run (epoch ms). */
  created: [string, number][];
}

export type BackendsApi = {
  /**
   * Fresh backends. `createLatencyMs`: the create call waits this long in a proxy before it
   * reaches the emulator (a service that provisions before it answers).
   */
  start(args: {
    timings?: Partial<EmulatorTimings>;
    createLatencyMs?: number;
  }): Promise<BackendUrls>;
  seedTracked(args: { n: number; githubShare: number; seed: number }): Promise<SeededRun[]>;
  startChanges(args: { perRunMeanIntervalMs: number; seed: number }): Promise<null>;
  stopChanges(args: null): Promise<StateChange[]>;
  trackingDelays(args: { changes: StateChange[] }): Promise<TrackingDelays>;
  agentRequests(args: { reset: boolean }): Promise<Record<string, number>>;
  firstPosts(args: null): Promise<FirstPosts>;
  firstSigns(args: null): Promise<FirstSigns>;
  /**
   * Every call the fakes and the emulator received so far, by kind (`slack chat.update`,
   * `service POST /agent/runs`): two snapshots give the calls a load made.
   */
  outsideCalls(args: null): Promise<Record<string, number>>;
  close(args: null): Promise<null>;
};
