/**
 * Private answers to a slash command through Slack's own channel for them, the command's
 * `response_url`: it needs no Web API call and no membership of the channel, so `/agent help`
 * is answered even where the bot was never invited. Slack accepts a few posts per URL for 30
 * minutes; when it refuses (used up, expired) or cannot be reached, the caller falls back to
 * `chat.postEphemeral`.
 *
 * Only Slack's own hosts are posted to (and, for the fakes and a proxy in front of Slack, the
 * origin of the configured Web API URL): the URL comes from a signed request, but the relay
 * never sends a message to an address a payload merely names.
 */
import type { Logger } from '../../core/ports/index.js';
import type { SlackMessage } from '../render/render-blocks.js';
import { normaliseApiUrl } from '../api/web-client.js';

export interface ResponseUrlPoster {
  /** Whether the relay posts to this URL at all. */
  accepts(url: string): boolean;
  /** Post `message` privately; true when Slack took it. */
  post(url: string, message: SlackMessage): Promise<boolean>;
}

function isSlackHost(url: URL): boolean {
  return (
    url.protocol === 'https:' &&
    (url.hostname === 'slack.com' || url.hostname.endsWith('.slack.com'))
  );
}

export function createResponseUrlPoster(deps: {
  apiUrl?: string;
  timeoutMs: number;
  logger: Logger;
}): ResponseUrlPoster {
  const apiOrigin = new URL(normaliseApiUrl(deps.apiUrl)).origin;
  const log = deps.logger.child({ component: 'slack-response-url' });

  function accepts(raw: string): boolean {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return false;
    }
    return isSlackHost(url) || url.origin === apiOrigin;
  }

  return {
    accepts,
    async post(url, message) {
      if (!accepts(url)) return false;
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json; charset=utf-8' },
          body: JSON.stringify({
            response_type: 'ephemeral',
            replace_original: false,
            text: message.text,
            ...(message.blocks.length > 0 ? { blocks: message.blocks } : {}),
          }),
          signal: AbortSignal.timeout(deps.timeoutMs),
        });
        const answer = (await res.text()).slice(0, 100);
        if (res.ok) return true;
        log.info(
          { status: res.status, answer },
          'Slack refused the response URL; posting otherwise',
        );
        return false;
      } catch (err) {
        log.warn({ err }, 'response URL could not be reached; posting otherwise');
        return false;
      }
    },
  };
}
