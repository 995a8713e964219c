/**
 * Slash commands and button clicks -> neutral Triggers (pure).
 */
import { isPrompt } from '../../core/command/command.js';
import { parseCommand } from '../../core/command/parse-command.js';
import { settingsScopeOf } from '../../core/thread-key.js';
import type { Trigger } from '../../core/trigger.js';
import type { Conversion, ConvertContext } from './conversion.js';
import { ignore, replyThread } from './conversion.js';
import type { BlockActions, SlashCommand } from './payloads.js';
import { slackThreadKey } from '../api/slack-address.js';
import { toPlainText } from '../api/slack-text.js';

/** Commands whose answer is for everyone: a prompt (it posts the run's status message). */
function isPublicPrompt(text: string, commandWord: string): boolean {
  const parsed = parseCommand({
    text,
    addressed: true,
    platform: 'slack',
    botHandle: '',
    commandWord,
  });
  return parsed.kind === 'command' && isPrompt(parsed.command);
}

/** The slash command: a prompt anchors a new thread; anything else answers the caller only. */
export function fromSlashCommand(body: SlashCommand, ctx: ConvertContext): Conversion {
  const team = ctx.teamId ?? body.team_id;
  const text = toPlainText(body.text).trim();
  const isPublic = isPublicPrompt(text, body.command);
  const threadKey = slackThreadKey(team, body.channel_id, '');
  const trigger: Trigger = {
    platform: 'slack',
    kind: 'slash_command',
    threadKey,
    actor: { id: body.user_id, ...(body.user_name === undefined ? {} : { name: body.user_name }) },
    text,
    addressed: true,
    context: {},
    deliveryId: `cmd:${body.trigger_id}`,
    receivedAt: new Date(ctx.now).toISOString(),
    settingsScope: settingsScopeOf({
      platform: 'slack',
      team,
      channel: body.channel_id,
      threadTs: '',
    }),
    ...(isPublic ? { anchorsNewThread: true } : { replyPrivatelyTo: body.user_id }),
    ...(body.response_url === undefined ? {} : { responseUrl: body.response_url }),
  };
  return { type: 'trigger', trigger, channel: body.channel_id, user: body.user_id };
}

/**
 * What the slash command's HTTP answer shows the caller at once (Slack shows it to them only):
 * for a prompt, where its status message will appear once the run starts. Other commands
 * answer nothing here: their answer follows through the `response_url` as soon as it is ready.
 */
export function slashAcknowledgement(trigger: Trigger, channel: string): string | undefined {
  if (!trigger.anchorsNewThread) return undefined;
  // The relay has not checked everything yet (a factory alias is looked up with the service):
  // nothing here may prove untrue, and a mistake is answered privately, before anything public.
  return `👀 Got it: once the run starts, its status message will appear in <#${channel}>. A mistake would be answered here, only to you.`;
}

/**
 * A run's button: Cancel on a status message or a run choice (`cancel <runId>`), Stop on a
 * status message (`stop <runId>`), Status on a
 * run choice (`status <runId>`); answered to the clicker only.
 */
export function fromRunButton(
  body: BlockActions,
  action: { runId: string; actionTs?: string },
  ctx: ConvertContext,
  which: 'cancel' | 'stop' | 'status' = 'cancel',
): Conversion {
  const channel = body.channel?.id ?? body.container?.channel_id;
  const ts = body.message?.ts ?? body.container?.message_ts;
  const team = ctx.teamId ?? body.team?.id ?? body.user.team_id;
  if (channel === undefined || ts === undefined || team === undefined) {
    return ignore('button outside a message');
  }
  // A button on a private answer (a run choice) sits on no message others see: answer in
  // the thread it was asked in, or in the channel.
  const ephemeral = body.container?.is_ephemeral === true && body.message === undefined;
  const threadTs = ephemeral
    ? (body.container?.thread_ts ?? '')
    : (body.message?.thread_ts ?? body.container?.thread_ts ?? ts);
  const delivery = action.actionTs ?? body.trigger_id;
  if (delivery === undefined) return ignore('no action id');
  const name = body.user.username ?? body.user.name;
  const trigger: Trigger = {
    platform: 'slack',
    kind: which === 'cancel' ? 'cancel_button' : which === 'stop' ? 'stop_button' : 'status_button',
    threadKey: slackThreadKey(team, channel, threadTs),
    actor: { id: body.user.id, ...(name === undefined ? {} : { name }) },
    text: `${which} ${action.runId}`,
    addressed: true,
    context: {},
    deliveryId: `action:${delivery}`,
    receivedAt: new Date(ctx.now).toISOString(),
    settingsScope: settingsScopeOf({ platform: 'slack', team, channel, threadTs: '' }),
    replyPrivatelyTo: body.user.id,
    runId: action.runId,
  };
  return {
    type: 'trigger',
    trigger,
    channel,
    user: body.user.id,
    ...replyThread(ts, threadTs === '' ? undefined : threadTs),
    ...(body.user.team_id === undefined ? {} : { userTeam: body.user.team_id }),
  };
}
