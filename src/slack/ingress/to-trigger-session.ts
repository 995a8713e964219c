/**
 * Slack's agent sessions: Stop clicked in a thread's session arrives as
 * `agent_session_stopped` (channel, thread, who clicked). It becomes a `session_stopped`
 * trigger on that thread: the runs use case stops the thread's run if the person may.
 */
import { z } from 'zod';
import { settingsScopeOf } from '../../core/thread-key.js';
import type { Trigger } from '../../core/trigger.js';
import { slackThreadKey } from '../api/slack-address.js';
import type { Conversion, ConvertContext } from './conversion.js';
import { type EventEnvelope, SlackId, SlackTs } from './payloads.js';

export const AgentSessionStoppedEvent = z.object({
  type: z.literal('agent_session_stopped'),
  channel: SlackId,
  user: SlackId,
  thread_ts: SlackTs,
  team: SlackId.optional(),
});
export type AgentSessionStoppedEvent = z.infer<typeof AgentSessionStoppedEvent>;

export function fromSessionStopped(
  envelope: EventEnvelope,
  event: AgentSessionStoppedEvent,
  ctx: ConvertContext,
): Conversion {
  if (event.user === ctx.botUserId) return { type: 'ignore', reason: 'own stop' };
  const team =
    ctx.teamId ?? event.team ?? envelope.team_id ?? envelope.authorizations?.[0]?.team_id;
  if (team === undefined || team === null) return { type: 'ignore', reason: 'no team' };
  const trigger: Trigger = {
    platform: 'slack',
    kind: 'session_stopped',
    threadKey: slackThreadKey(team, event.channel, event.thread_ts),
    actor: { id: event.user },
    text: 'stop',
    addressed: true,
    context: {},
    deliveryId: envelope.event_id,
    receivedAt: new Date(ctx.now).toISOString(),
    settingsScope: settingsScopeOf({
      platform: 'slack',
      team,
      channel: event.channel,
      threadTs: '',
    }),
  };
  return {
    type: 'trigger',
    trigger,
    channel: event.channel,
    user: event.user,
    threadTs: event.thread_ts,
  };
}
