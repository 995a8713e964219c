/**
 * The wire shape of a factory, as the newest official SDK describes it: every required member
 * present, with the defaults of a factory created in the web app and never configured further
 * (no repositories, no integrations declared, the platform's defaults for agents and scorers).
 */
import { EMULATOR_TEAM_UID } from './new-run.js';
import type { EmuRun, EmulatorFactory } from './types.js';

/** A dispatched run's executor is its factory's foreman: `foreman-<factory uid>`. */
export const FOREMAN_UID_PREFIX = 'foreman-';

export function factoryUidOf(run: EmuRun): string | undefined {
  const uid = run.executor?.uid;
  return uid?.startsWith(FOREMAN_UID_PREFIX) ? uid.slice(FOREMAN_UID_PREFIX.length) : undefined;
}

/** The emulator's factories all exist from the start of its world. */
const CREATED_AT = '2025-01-01T00:00:00.000Z';

export function toFactoryItem(f: EmulatorFactory): Record<string, unknown> {
  return {
    uid: f.uid,
    name: f.name,
    alias: f.alias ?? null,
    avatar_url: null,
    description: null,
    team_uid: EMULATOR_TEAM_UID,
    created_at: CREATED_AT,
    updated_at: CREATED_AT,
    code_forge: 'GITHUB',
    code_forges: ['GITHUB'],
    credential_strategy: 'EXECUTOR',
    default_environment: null,
    default_model: null,
    integrations: null,
    repositories: [],
    agent_defaults: { default_runner_uid: '', mcp_servers: {}, secrets: [], worker_host: '' },
    scorer_defaults: {},
    scoring: { default_model: null },
  };
}
