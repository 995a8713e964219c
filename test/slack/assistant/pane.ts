/**
 * Alice's agent pane in workspace One (workspace-harness.ts): where its assistant thread is, and
 * the events Slack sends the relay from it.
 */
import { eventCallback, messageEvent } from '../../helpers/slack.js';
import { assistantThreadStartedEvent } from '../../helpers/slack-surfaces.js';
import { WORKSPACE_ONE } from '../install/workspace-harness.js';

export const ALICE = 'UALICE01';
/** Alice's direct-message channel with the app, where the pane lives. */
export const PANE = 'DPANE0001';
/** The pane's assistant thread. */
export const THREAD = '1700002000.000100';

/** An event of workspace One as Slack wraps it for the app. */
export const paneEvent = (e: Record<string, unknown>): string =>
  eventCallback(e, { teamId: WORKSPACE_ONE.team_id, botUserId: WORKSPACE_ONE.bot_user_id });

/** A message in the pane's thread, by `user` (Alice unless given). */
export function paneMessage(text: string, ts: string, user = ALICE): string {
  return paneEvent({
    ...messageEvent({ user, text, ts, channel: PANE, channel_type: 'im', thread_ts: THREAD }),
    team: WORKSPACE_ONE.team_id,
  });
}

/** Alice opens the pane's thread while she looks at `contextChannel`. */
export function threadStarted(contextChannel = 'CGENERAL1'): string {
  return paneEvent(
    assistantThreadStartedEvent({
      user: ALICE,
      channel: PANE,
      threadTs: THREAD,
      contextChannel,
      team: WORKSPACE_ONE.team_id,
    }),
  );
}
