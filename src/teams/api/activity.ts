/**
 * The parts of a Bot Framework activity the relay reads (the Bot Framework REST schema's
 * `Activity`, as `@microsoft/teams.api` types it: `from`, `conversation`, `entities`,
 * `channelData.tenant`, an invoke's `name` and `value`). Unknown fields are kept out; what
 * is read is checked, so a malformed activity is a clear 400, never a crash.
 */
import { z } from 'zod';

const Account = z.object({
  id: z.string().min(1).max(300),
  name: z.string().max(500).optional(),
  aadObjectId: z.string().max(100).optional(),
  /** `user`, `guest`, `anonymous`, when Teams includes it. */
  userRole: z.string().max(50).optional(),
  tenantId: z.string().max(100).optional(),
});

const Mention = z.object({
  type: z.string(),
  text: z.string().max(1000).optional(),
  mentioned: z.object({ id: z.string().max(300), name: z.string().max(500).optional() }).optional(),
});

export const Activity = z.object({
  type: z.string().min(1).max(100),
  id: z.string().min(1).max(300).optional(),
  name: z.string().max(200).optional(),
  serviceUrl: z.string().url().max(2000),
  channelId: z.string().max(100).optional(),
  from: Account,
  recipient: z.object({ id: z.string().max(300), name: z.string().max(500).optional() }).optional(),
  conversation: z.object({
    id: z.string().min(1).max(1000),
    conversationType: z.string().max(50).optional(),
    tenantId: z.string().max(100).optional(),
    isGroup: z.boolean().optional(),
  }),
  text: z.string().max(100_000).optional(),
  entities: z.array(z.unknown()).max(200).optional(),
  channelData: z
    .object({
      tenant: z.object({ id: z.string().max(100) }).optional(),
      team: z.object({ id: z.string().max(1000) }).optional(),
      channel: z.object({ id: z.string().max(1000) }).optional(),
    })
    .optional(),
  replyToId: z.string().max(300).optional(),
  value: z.unknown().optional(),
});
export type Activity = z.infer<typeof Activity>;

/** The mention entities of an activity (others are skipped). */
export function mentionsOf(activity: Activity): z.infer<typeof Mention>[] {
  return (activity.entities ?? []).flatMap((e) => {
    const parsed = Mention.safeParse(e);
    return parsed.success && parsed.data.type === 'mention' ? [parsed.data] : [];
  });
}

/** The tenant an activity comes from: `conversation.tenantId`, else `channelData.tenant.id`. */
export function tenantOfActivity(activity: Activity): string | undefined {
  return (activity.conversation.tenantId ?? activity.channelData?.tenant?.id)?.toLowerCase();
}

/** The verbs of the status card's Stop and Cancel, and of its refresh (`Action.Execute`). */
export const CARD_VERBS = { stop: 'stop', cancel: 'cancel', refresh: 'refresh' } as const;

/** A Universal Action's press: `adaptiveCard/action` with an `Action.Execute`'s verb and data. */
export const CardAction = z.object({
  action: z.object({
    type: z.literal('Action.Execute'),
    verb: z.string().max(100),
    data: z.record(z.string(), z.unknown()).optional(),
  }),
  trigger: z.string().optional(),
});

/** A message extension's action (`composeExtension/submitAction`) on a message. */
export const ExtensionAction = z.object({
  commandId: z.string().max(200),
  commandContext: z.string().max(50).optional(),
  messagePayload: z
    .object({
      id: z.string().max(300).optional(),
      body: z.object({ content: z.string().max(100_000).optional() }).optional(),
      from: z
        .object({ user: z.object({ displayName: z.string().max(500).optional() }).optional() })
        .optional(),
      linkToMessage: z.string().max(2000).optional(),
    })
    .optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});

/** The conversation to post to for a thread: a channel thread's id carries `;messageid=`. */
export function threadConversationId(conversation: string, root: string): string {
  return root === '' ? conversation : `${conversation};messageid=${root}`;
}

/** A conversation id without its `;messageid=` part, and that part (a channel thread's root). */
export function splitConversationId(id: string): { conversation: string; root?: string } {
  const at = id.indexOf(';messageid=');
  if (at < 0) return { conversation: id };
  return { conversation: id.slice(0, at), root: id.slice(at + ';messageid='.length) };
}
