/**
 * What the one-platform worlds (linear.ts, jira.ts, teams.ts) share: the emulator they start,
 * the relay's variables besides the platform's own, its engine options, and how a test waits
 * for what the relay said on the platform.
 */
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator, EmulatorTimings } from '../../src/emulator/index.js';
import { QUICK_TIMINGS } from './relay.js';
import { SECRETS } from './secrets.js';

/** The emulator with the test key and quick state timings (`timings` on top). */
export function startWorldEmulator(timings: Partial<EmulatorTimings> = {}): Promise<Emulator> {
  return startEmulator({
    apiKey: SECRETS.agentApiKey,
    timings: { ...QUICK_TIMINGS, ...timings },
    tickMs: 10,
  });
}

/** The relay's variables for a world, besides its platform's: the emulator, quick polling. */
export function worldEnv(emulator: Emulator): Record<string, string> {
  return {
    AGENT_API_URL: emulator.baseUrl,
    AGENT_API_KEY: SECRETS.agentApiKey,
    POLL_INTERVAL_MS: '100',
    SHUTDOWN_TIMEOUT_MS: '2000',
    LOG_LEVEL: 'debug',
  };
}

/** The engine's options in a world: quick workers, an inbox retried every 300 ms. */
export const WORLD_ENGINE_OPTIONS = { workerPollMs: 20, inboxRetryDelaysMs: [300, 300, 300, 300] };

/**
 * What `find` finds, looked for every 20 ms; after `timeoutMs`, an error that says there was no
 * such `what` and lists what was `seen` instead.
 */
export async function pollFor<T>(
  find: () => T | undefined,
  what: string,
  seen: () => string[],
  timeoutMs: number,
  separator = '\n---\n',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) {
      throw new Error(`no such ${what} within ${timeoutMs} ms; saw:\n${seen().join(separator)}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** POST `body` as JSON to a world's webhook URL with `headers` as given (signed or not). */
export function postRawWebhook(
  world: { webhookUrl: string },
  body: string,
  headers: Record<string, string>,
): Promise<Response> {
  return fetch(world.webhookUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
}
