/**
 * Slack's `response_url`s, as the fake serves them: each slash command gets one (minted with
 * `responseUrl`), tied to its channel and user, usable 5 times within 30 minutes. A POST of a
 * message (JSON: `text`, `blocks`, `response_type`) shows it to that user only (ephemeral,
 * the default) or to the channel (`in_channel`), whether or not the bot is a member: that is
 * what makes it the channel for a slash command's private answers.
 */
import type { SlackStore } from './slack-messages.js';
import type { FakeIdentity } from './slack-methods.js';

export interface RecordedResponse {
  /** The response URL's id (the last path segment). */
  id: string;
  channel: string;
  user: string;
  body: Record<string, unknown>;
  /** HTTP status answered (200, or 404 for a used or expired URL). */
  status: number;
  at: number;
}

const MAX_USES = 5;
const LIFETIME_MS = 30 * 60_000;

export function createResponseUrls(input: {
  store: SlackStore;
  identity: FakeIdentity;
  now: () => number;
}) {
  const { store, identity, now } = input;
  const minted = new Map<string, { channel: string; user: string; at: number; uses: number }>();
  const responses: RecordedResponse[] = [];
  let seq = 0;

  return {
    responses,
    /** A new response URL path for a command typed by `user` in `channel`. */
    mint(where: { channel: string; user: string }): string {
      seq += 1;
      const id = `R${seq}`;
      minted.set(id, { ...where, at: now(), uses: 0 });
      return `/commands/T/${id}`;
    },
    /** Answer a POST to `/commands/T/<id>`: status and body text. */
    answer(id: string, raw: string): { status: number; text: string } {
      const url = minted.get(id);
      if (url === undefined) return { status: 404, text: 'no_such_url' };
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return { status: 400, text: 'invalid_payload' };
      }
      const record = (status: number) =>
        responses.push({ id, channel: url.channel, user: url.user, body, status, at: now() });
      if (now() - url.at > LIFETIME_MS) {
        record(404);
        return { status: 404, text: 'expired_url' };
      }
      if (url.uses >= MAX_USES) {
        record(404);
        return { status: 404, text: 'used_url' };
      }
      url.uses += 1;
      record(200);
      const text = typeof body.text === 'string' ? body.text : '';
      const message = store.add({
        channel: url.channel,
        text,
        user: identity.user_id,
        bot_id: identity.bot_id,
        ...(Array.isArray(body.blocks) ? { blocks: body.blocks } : {}),
        ...(body.response_type === 'in_channel' ? {} : { onlyFor: url.user }),
      });
      store.emit({ kind: 'post', message });
      return { status: 200, text: 'ok' };
    },
  };
}
