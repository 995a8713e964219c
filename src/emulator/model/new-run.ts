/**
 * Builds the emulator's record of a freshly created run (state QUEUED) from a validated
 * request. Runs are ordinary whether they come from /agent/runs, a factory or a seed.
 */
import { randomUUID } from 'node:crypto';
import type { CreateRunRequest } from '../../agent/schemas.js';
import { isMarkedNonCancellable, parseScript } from './state-machine.js';
import type { EmuRun, Principal } from './types.js';

export const API_KEY_PRINCIPAL: Principal = {
  uid: 'sa-api-key',
  display_name: 'API key',
  type: 'service_account',
};

const TITLE_MAX = 80;

/** The team the emulator's API key belongs to (one of several: see `scopeOf`). */
export const EMULATOR_TEAM_UID = 'team-emulator';

/**
 * The published rule: `team` defaults to true only for a user on a single team. The
 * emulator's key acts as a user on several teams, so a run is personal unless the create
 * says `team: true` (a child inherits its parent's ownership).
 */
function scopeOf(req: CreateRunRequest, creator: Principal, parent?: EmuRun): EmuRun['scope'] {
  if (parent) return { ...parent.scope };
  return req.team === true
    ? { type: 'Team', uid: EMULATOR_TEAM_UID }
    : { type: 'User', uid: creator.uid };
}

export function deriveTitle(prompt: string, skill?: string): string {
  const line = prompt.split('\n').find((l) => l.trim() !== '') ?? '';
  const text = line.replace(/\s+/g, ' ').trim();
  if (text === '') return skill ? `Run skill ${skill}` : 'Untitled run';
  return text.length <= TITLE_MAX ? text : `${text.slice(0, TITLE_MAX - 1).trimEnd()}…`;
}

export interface NewRunContext {
  seq: number;
  now: number;
  creator?: Principal;
  executor?: Principal;
  triggerUrl?: string;
  /** The run named by `parent_run_id`, when it exists: its metadata is inherited. */
  parent?: EmuRun;
}

export function buildRun(req: CreateRunRequest, ctx: NewRunContext): EmuRun {
  const prompt = req.prompt ?? '';
  const title = req.title?.trim() ? req.title.trim() : deriveTitle(prompt, req.skill);
  const runId = randomUUID();
  const executor =
    ctx.executor ??
    (req.agent_identity_uid
      ? {
          uid: req.agent_identity_uid,
          display_name: 'Agent identity',
          type: 'service_account' as const,
        }
      : undefined);
  return {
    seq: ctx.seq,
    runId,
    title,
    titleKey: title.toLowerCase(),
    searchText: `${title}\n${prompt}`.toLowerCase(),
    prompt,
    state: 'QUEUED',
    createdAt: ctx.now,
    updatedAt: ctx.now,
    sessionId: randomUUID(),
    ...(req.config ? { agentConfig: structuredClone(req.config) } : {}),
    creator: ctx.creator ?? API_KEY_PRINCIPAL,
    scope: scopeOf(req, ctx.creator ?? API_KEY_PRINCIPAL, ctx.parent),
    ...(executor ? { executor } : {}),
    source: req.parent_run_id ? 'ORCHESTRATION' : 'API',
    artifacts: [],
    ...(ctx.triggerUrl ? { triggerUrl: ctx.triggerUrl } : {}),
    // Explicit keys override the ones inherited from the parent (the published rule).
    metadata: { ...(ctx.parent?.metadata ?? {}), ...(req.metadata ?? {}) },
    conversationId: req.conversation_id ?? randomUUID(),
    ...(req.parent_run_id ? { parentRunId: req.parent_run_id } : {}),
    ...(req.parent_run_id
      ? { rootRunId: ctx.parent?.rootRunId ?? ctx.parent?.runId ?? req.parent_run_id }
      : {}),
    earlierRunTimeMs: 0,
    cancellable: !isMarkedNonCancellable(prompt),
    history: [{ state: 'QUEUED', at: ctx.now }],
    script: parseScript(prompt, req.mode),
    gen: 0,
    manual: false,
  };
}
