/**
 * The parts of Slack's payloads the ingress reads, as zod schemas (every byte from outside
 * passes one). Unknown fields are ignored; a payload that does not fit is ignored with a log
 * line, never a crash.
 */
import { z } from 'zod';

export const SlackId = z.string().regex(/^[A-Za-z0-9]{1,64}$/);
export const SlackTs = z.string().regex(/^\d{1,20}\.\d{1,20}$/);

/** The Events API envelope (`event_callback`). */
export const EventEnvelope = z.object({
  team_id: SlackId.optional(),
  event_id: z.string().min(1).max(200),
  authorizations: z.array(z.object({ team_id: SlackId.nullish() })).optional(),
});
export type EventEnvelope = z.infer<typeof EventEnvelope>;

export const AppMentionEvent = z.object({
  type: z.literal('app_mention'),
  user: SlackId.optional(),
  bot_id: z.string().optional(),
  app_id: z.string().nullish(),
  bot_profile: z.unknown().optional(),
  subtype: z.string().optional(),
  edited: z.unknown().optional(),
  text: z.string().default(''),
  ts: SlackTs,
  thread_ts: SlackTs.optional(),
  channel: SlackId,
  team: SlackId.optional(),
  /** Slack Connect: the author's own workspace. */
  user_team: SlackId.optional(),
});
export type AppMentionEvent = z.infer<typeof AppMentionEvent>;

export const MessageEvent = z.object({
  type: z.literal('message'),
  subtype: z.string().optional(),
  hidden: z.boolean().optional(),
  user: SlackId.optional(),
  bot_id: z.string().nullish(),
  app_id: z.string().nullish(),
  bot_profile: z.unknown().optional(),
  text: z.string().default(''),
  ts: SlackTs,
  thread_ts: SlackTs.optional(),
  channel: SlackId,
  channel_type: z.string().optional(),
  team: SlackId.optional(),
  /** Slack Connect: the author's own workspace. */
  user_team: SlackId.optional(),
});
export type MessageEvent = z.infer<typeof MessageEvent>;

/** A slash command's form body. */
export const SlashCommand = z.object({
  team_id: SlackId,
  channel_id: SlackId,
  user_id: SlackId,
  user_name: z.string().optional(),
  command: z.string(),
  text: z.string().default(''),
  trigger_id: z.string().min(1).max(200),
  /** Where private answers to this command go (slack/notify posts them there). */
  response_url: z.url().max(2000).optional(),
});
export type SlashCommand = z.infer<typeof SlashCommand>;

/** A `block_actions` payload with the clicked button. */
export const BlockActions = z.object({
  type: z.literal('block_actions'),
  team: z.object({ id: SlackId }).nullish(),
  user: z.object({
    id: SlackId,
    name: z.string().optional(),
    username: z.string().optional(),
    team_id: SlackId.optional(),
  }),
  channel: z.object({ id: SlackId }).optional(),
  container: z
    .object({
      channel_id: SlackId.optional(),
      message_ts: SlackTs.optional(),
      thread_ts: SlackTs.optional(),
      is_ephemeral: z.boolean().optional(),
    })
    .optional(),
  message: z.object({ ts: SlackTs, thread_ts: SlackTs.optional() }).optional(),
  trigger_id: z.string().max(200).optional(),
});
export type BlockActions = z.infer<typeof BlockActions>;

export const ButtonAction = z.object({
  action_id: z.string(),
  value: z.string().optional(),
  action_ts: z.string().max(100).optional(),
});
export type ButtonAction = z.infer<typeof ButtonAction>;

/** Run ids as the service issues them (a conservative shape; anything else is ignored). */
export const RunId = z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/);
