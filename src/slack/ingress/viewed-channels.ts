/**
 * Slack's agent view tells the app which channel a person is looking at while they talk to it
 * (`app_context_changed`). Kept here per workspace and person, in memory and bounded: when
 * they then ask the app about "this channel" in its pane (a direct message), the channel goes
 * along as the run's context, as the older assistant threads do. Lost on restart, which only
 * means that context is missing until the person moves to another channel.
 */
import { z } from 'zod';

/** People remembered at once (the oldest forgotten first). */
const REMEMBERED = 10_000;

export const AppContextChangedEvent = z.object({
  type: z.literal('app_context_changed'),
  user: z.string(),
  context: z
    .object({
      entities: z.array(z.looseObject({ type: z.string(), value: z.unknown() })).optional(),
    })
    .optional(),
});
export type AppContextChangedEvent = z.infer<typeof AppContextChangedEvent>;

const ChannelId = z.string().regex(/^[CGD][A-Z0-9]{1,63}$/);

export interface ViewedChannels {
  /** Note what an `app_context_changed` event says the person looks at (or nothing). */
  seen(team: string, event: AppContextChangedEvent): void;
  get(team: string, user: string): string | undefined;
}

export function createViewedChannels(): ViewedChannels {
  const viewed = new Map<string, string>();
  return {
    seen(team, event) {
      const key = `${team}:${event.user}`;
      const entity = event.context?.entities?.find((e) => e.type === 'slack#/types/channel_id');
      const channel = ChannelId.safeParse(entity?.value);
      viewed.delete(key);
      if (!channel.success) return;
      viewed.set(key, channel.data);
      if (viewed.size > REMEMBERED) {
        const oldest = viewed.keys().next().value;
        if (oldest !== undefined) viewed.delete(oldest);
      }
    },
    get: (team, user) => viewed.get(`${team}:${user}`),
  };
}
