/**
 * What App Home reads and writes, as the service provides it (the store and the agent
 * client stay outside slack/): a workspace's recent runs, the detail of a run (session and
 * pull-request links, run time), one person's own defaults.
 */
import type { RunViewSource } from '../../core/message/run-view.js';
import type { RunRecord } from '../../core/ports/index.js';

export type PersonalKey = 'model' | 'env' | 'skill';
export const PERSONAL_KEYS: readonly PersonalKey[] = ['model', 'env', 'skill'];
export type PersonalDefaults = Partial<Record<PersonalKey, string>>;

export interface HomeSource {
  /** The workspace's most recent runs (every channel), newest first. */
  recentRuns(teamId: string, limit: number): Promise<RunRecord[]>;
  /** One run as the service knows it now; undefined when it cannot tell in time. */
  runDetail(runId: string): Promise<RunViewSource | undefined>;
  personalDefaults(teamId: string, userId: string): Promise<PersonalDefaults>;
  /**
   * What all of a person's runs in the workspace created since `since` (epoch ms) cost, and
   * how many reported a cost. Without it, App Home counts the recent runs it lists.
   */
  viewerMonth?(
    teamId: string,
    userId: string,
    since: number,
  ): Promise<{ spentUsd: number; runs: number }>;
  /** Set (or, with an empty value, clear) each given key. */
  setPersonalDefaults(teamId: string, userId: string, values: PersonalDefaults): Promise<void>;
  /**
   * Record that a person opened the tab, and read when they last did: kept where every
   * replica sees it (the database). Without them, this process remembers it alone.
   */
  homeOpened?(teamId: string, userId: string, at: number): Promise<void>;
  homeOpenedAt?(teamId: string, userId: string): Promise<number | undefined>;
}
