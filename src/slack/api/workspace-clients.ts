/**
 * One Web API client per bot token (so per workspace), made when first needed: the notifier
 * and App Home call each workspace with its own token (`bot-tokens.ts`). Bounded. `options`
 * is read when a client is made (so a getter there is read late).
 */
import type { BotTokenSource } from './bot-tokens.js';
import { createWebClient, type SlackClientOptions, type WebClient } from './web-client.js';

export type WorkspaceClients = (team: string) => Promise<WebClient>;

export function createWorkspaceClients(
  tokens: BotTokenSource,
  options: Omit<SlackClientOptions, 'token'>,
  limit = 1_000,
): WorkspaceClients {
  const clients = new Map<string, WebClient>();
  return async (team) => {
    const token = await tokens.tokenFor(team);
    let client = clients.get(token);
    if (client === undefined) {
      client = createWebClient({ ...options, token });
      if (clients.size >= limit) clients.clear();
      clients.set(token, client);
    }
    return client;
  };
}
