/**
 * Whether a Slack message event is a person's own words: only those may start or steer a
 * run. Slack's own system messages (Slackbot's "You have been removed from #…", joins,
 * topic changes), workflow messages and anything an app or bot posted are not, wherever they
 * arrive (a channel, a direct message, the assistant pane).
 *
 * Subtypes kept (still a person speaking): none, `file_share` (a message with a file),
 * `thread_broadcast` (a reply also sent to the channel) and `me_message` (`/me …`). Every
 * other subtype is Slack describing something that happened (`channel_join`,
 * `channel_leave`, `channel_topic`, `bot_message`, `message_changed`, `message_deleted`,
 * `reminder_add`, `slackbot_response`, `tombstone`, …) and is ignored, as are future ones.
 */

/** Slackbot's user id in every workspace: its messages carry no `bot_id`. */
export const SLACKBOT_USER_ID = 'USLACKBOT';

export const PERSON_SUBTYPES: ReadonlySet<string | undefined> = new Set([
  undefined,
  'file_share',
  'thread_broadcast',
  'me_message',
]);

export interface MessageOrigin {
  user?: string | null;
  subtype?: string | null;
  bot_id?: string | null;
  /** Set on messages an app posted (also "as a user" through a user token). */
  app_id?: string | null;
  bot_profile?: unknown;
  hidden?: boolean | null;
}

/** Why the event is not a person's own words, or undefined when it is. */
export function notPersonsWords(event: MessageOrigin): string | undefined {
  if (event.user === SLACKBOT_USER_ID) return 'from Slackbot';
  if (event.bot_id != null || event.bot_profile != null || event.subtype === 'bot_message') {
    return 'from a bot';
  }
  if (event.app_id != null) return 'posted by an app';
  const subtype = event.subtype ?? undefined;
  if (!PERSON_SUBTYPES.has(subtype)) return `subtype ${subtype ?? ''}`;
  if (event.hidden === true) return 'hidden message';
  return undefined;
}
