/**
 * Which bot token a Web API call in a workspace carries. One workspace: the configured token.
 * Any number (OAuth): the installation of the workspace (or of its organisation), else the
 * configured token when there is one; a workspace that never installed the app gets a
 * permanent `forbidden` failure, so its notifications are parked instead of retried.
 */
import { DeliveryError } from '../../core/ports/index.js';

export interface BotTokenSource {
  tokenFor(teamId: string): Promise<string>;
}

export interface InstalledBotLookup {
  botFor(q: { teamId: string }): Promise<{ token: string } | undefined>;
}

export function fixedBotToken(token: string): BotTokenSource {
  return { tokenFor: () => Promise.resolve(token) };
}

export function installedBotTokens(
  installations: InstalledBotLookup,
  fallback?: string,
): BotTokenSource {
  return {
    async tokenFor(teamId) {
      const bot = await installations.botFor({ teamId });
      if (bot !== undefined) return bot.token;
      if (fallback !== undefined) return fallback;
      throw new DeliveryError(
        'forbidden',
        'the Slack app is not installed in that workspace',
        false,
      );
    },
  };
}
