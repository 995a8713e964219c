/**
 * Which Slack workspaces the relay answers: those the operator listed (`SLACK_ALLOWED_TEAMS`,
 * team ids and Enterprise Grid organisation ids), any workspace only when the operator said
 * so (`SLACK_ALLOW_ANY_WORKSPACE`), and with one bot token and no list, the token's own
 * workspace. A request from any other workspace, or from one without an installation, is
 * answered 200 and dropped: Slack does not retry it, and one warning line per workspace per
 * interval says so, without a stack.
 */
import type { Clock, Logger } from '../../core/ports/index.js';
import { RelayError } from '../../core/relay-error.js';
import { NotInstalledError } from '../install/installations.js';

/** A workspace the relay does not serve (not on the list, or not its token's own). */
export class WorkspaceRefusedError extends RelayError<'slack_workspace_refused'> {
  override readonly name = 'WorkspaceRefusedError';
  constructor(message: string) {
    super('slack_workspace_refused', message);
  }
}

export interface WorkspaceQuery {
  teamId?: string | undefined;
  enterpriseId?: string | undefined;
}

export interface WorkspaceGateOptions {
  allowedTeams: readonly string[];
  allowAnyWorkspace: boolean;
  logger: Logger;
  clock: Clock;
  /** One warning per workspace per this many ms; default a minute. */
  warnEveryMs?: number;
}

export interface WorkspaceGate {
  /** Whether this workspace (or its organisation) is on the list, or any workspace may. */
  allows(q: WorkspaceQuery): boolean;
  /** Whether there is a list at all (else one bot token serves its own workspace). */
  readonly listed: boolean;
  /** Log a dropped request: at most one line per workspace per interval. */
  dropped(q: WorkspaceQuery, why: string): void;
}

export function createWorkspaceGate(options: WorkspaceGateOptions): WorkspaceGate {
  const log = options.logger.child({ component: 'slack-workspaces' });
  const every = options.warnEveryMs ?? 60_000;
  const lastWarned = new Map<string, number>();
  const allowed = new Set(options.allowedTeams);
  return {
    listed: allowed.size > 0,
    allows(q) {
      if (options.allowAnyWorkspace || allowed.size === 0) return true;
      if (q.teamId !== undefined && allowed.has(q.teamId)) return true;
      return q.enterpriseId !== undefined && allowed.has(q.enterpriseId);
    },
    dropped(q, why) {
      const key = `${q.enterpriseId ?? ''}:${q.teamId ?? ''}`;
      const now = options.clock.now();
      const last = lastWarned.get(key);
      if (last !== undefined && now - last < every) return;
      if (lastWarned.size > 10_000) lastWarned.clear();
      lastWarned.set(key, now);
      log.warn(
        { teamId: q.teamId, enterpriseId: q.enterpriseId, reason: why },
        'Slack request from a workspace this relay does not serve; answered 200 and dropped',
      );
    },
  };
}

/** An error (or Bolt's wrapper of one) that means "not a workspace we serve". */
export function workspaceRefusal(err: unknown): Error | undefined {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 3; depth += 1) {
    if (e instanceof WorkspaceRefusedError || e instanceof NotInstalledError) return e;
    e = (e as { original?: unknown }).original ?? e.cause;
  }
  return undefined;
}
