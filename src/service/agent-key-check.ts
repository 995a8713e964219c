/**
 * The cheap start-up probe of the Agent Run Service: one `listRuns({limit: 1})`. A rejected
 * key is fatal (nothing would work); an unreachable service is not (it may come back, and the
 * inbox retries), so the caller only warns.
 */
import { isServiceError } from '../core/ports/index.js';
import type { AgentService } from '../core/ports/index.js';
import { RelayError } from '../core/relay-error.js';
import type { PlatformStartCode } from '../platform/contract.js';

export type AgentKeyCheck =
  | { outcome: 'ok' }
  | { outcome: 'rejected'; status: number }
  /**
   * The key was recognised, but the team's account refuses work for now (out of credits,
   * over budget, a feature or integration off): not the key's fault, so not fatal.
   */
  | { outcome: 'refused'; status: number; serviceCode: string }
  | { outcome: 'unreachable'; detail: string; error: unknown };

/** Refusals that say something about the team's account, not about the key. */
const ACCOUNT_REFUSALS: ReadonlySet<string> = new Set([
  'insufficient_credits',
  'budget_exceeded',
  'feature_not_available',
  'integration_disabled',
  'integration_not_configured',
  'external_authentication_required',
  'content_policy_violation',
]);

export async function checkAgentKey(
  agent: Pick<AgentService, 'listRuns'>,
  timeoutMs = 5_000,
): Promise<AgentKeyCheck> {
  try {
    await agent.listRuns({ limit: 1 }, { timeoutMs, maxRetries: 0 });
    return { outcome: 'ok' };
  } catch (err) {
    if (
      isServiceError(err) &&
      (err.code === 'authentication' || err.code === 'permission_denied')
    ) {
      const code = err.serviceCode;
      if (code !== undefined && ACCOUNT_REFUSALS.has(code)) {
        return { outcome: 'refused', status: err.status ?? 403, serviceCode: code };
      }
      return { outcome: 'rejected', status: err.status ?? 401 };
    }
    const detail = isServiceError(err)
      ? `${err.code}${err.status ? ` (${err.status})` : ''}`
      : err instanceof Error
        ? err.message
        : String(err);
    return { outcome: 'unreachable', detail, error: err };
  }
}

/** Start-up failures that end the process with a one-line message and exit code 1. */
export type StartupErrorCode =
  'agent_key_rejected' | PlatformStartCode | 'listen_failed' | 'database_unavailable';

export class StartupError extends RelayError<StartupErrorCode> {
  override readonly name = 'StartupError';
}

export function keyRejectedMessage(url: string, status: number): string {
  return (
    `AGENT_API_KEY was rejected by ${url} (${status}). ` +
    'Check the key (and that AGENT_API_URL is the versioned root, e.g. …/api/v1), then start again.'
  );
}
