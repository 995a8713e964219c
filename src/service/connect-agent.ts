/**
 * The Agent Run Service the relay talks to: the real one (its key checked once at start-up:
 * a 401 is fatal, no answer is only a warning), or the emulator embedded on loopback with a
 * fresh random key when AGENT_API_URL is unset.
 */
import { randomUUID } from 'node:crypto';
import { createAgentClient } from '../agent/index.js';
import type { AgentRequestInfo, OffSpecRunItem } from '../agent/index.js';
import { checkAgentKey, keyRejectedMessage, StartupError } from './agent-key-check.js';
import type { Config } from '../config/load.js';
import type { AgentService, Catalogue, Clock, Logger } from '../core/ports/index.js';
import { createCachedCatalogue } from '../agent/catalogue-cache.js';
import type { Emulator, EmulatorFactory, EmulatorTimings } from '../emulator/index.js';

export interface ConnectedAgent {
  agent: AgentService;
  /** The base URL in use (the emulator's when embedded). */
  agentUrl: string;
  emulator?: Emulator;
  /** The service's environments and models, read through a short cache. */
  catalogue: Catalogue;
}

/** The real service (its key checked once), or the embedded emulator on loopback. */
export async function connectAgent(
  config: Config,
  deps: {
    logger: Logger;
    clock: Clock;
    onRequest: (info: AgentRequestInfo) => void;
    timings?: Partial<EmulatorTimings>;
    factories?: EmulatorFactory[];
  },
): Promise<ConnectedAgent> {
  const { logger, clock, onRequest } = deps;
  // Reported once per run id by the client: the run is left out (or kept without the odd
  // fields) and everything else keeps moving.
  const onOffSpecRunItem = (item: OffSpecRunItem): void => {
    logger.warn(
      { runId: item.runId, issues: item.issues.slice(0, 5), droppedFields: item.droppedFields },
      item.skipped
        ? 'a listed run does not match the published description; it is left out'
        : 'a listed run has optional fields that do not match the published description; they are ignored',
    );
  };
  if (config.agent.kind === 'emulator') {
    // Loaded only here: a relay pointed at the real service never loads the emulator.
    const { FAST_TIMINGS, startEmulator } = await import('../emulator/index.js');
    const emulator = await startEmulator({
      host: '127.0.0.1',
      port: 0,
      apiKey: randomUUID(),
      clock,
      timings: deps.timings ?? (config.agent.fast ? FAST_TIMINGS : undefined),
      ...(deps.factories ? { factories: deps.factories } : {}),
    });
    const agent = createAgentClient({
      baseUrl: emulator.baseUrl,
      apiKey: emulator.apiKey,
      clock,
      onRequest,
      onOffSpecRunItem,
    });
    const catalogue = createCachedCatalogue({ source: agent, clock, logger });
    return { agent, agentUrl: emulator.baseUrl, emulator, catalogue };
  }
  const { url, apiKey } = config.agent;
  const agent = createAgentClient({ baseUrl: url, apiKey, clock, onRequest, onOffSpecRunItem });
  const check = await checkAgentKey(agent);
  if (check.outcome === 'rejected')
    throw new StartupError('agent_key_rejected', keyRejectedMessage(url, check.status));
  if (check.outcome === 'refused')
    logger.warn(
      { agentUrl: url, status: check.status, serviceCode: check.serviceCode },
      `The Agent Run Service at ${url} accepted AGENT_API_KEY but refuses work for now ` +
        `(${check.status} ${check.serviceCode}); starting anyway: people who ask are told why`,
    );
  if (check.outcome === 'unreachable')
    logger.warn(
      { agentUrl: url, problem: check.detail },
      `The Agent Run Service at ${url} did not answer (${check.detail}); starting anyway: ` +
        'triggers wait in the inbox and are retried when it is back',
    );
  return {
    agent,
    agentUrl: url,
    catalogue: createCachedCatalogue({ source: agent, clock, logger }),
  };
}
