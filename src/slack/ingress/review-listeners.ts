/**
 * The answers to a question about a run (its plan, its spending cap) pressed in Slack: each
 * button's value is `<run id>:<version>`, so the runs decide whether it still applies (a
 * stale or repeated press is told so, privately). Request changes opens a form with one text
 * box; its submission is the answer. The allowlists apply as for any button; who may answer
 * is the runs' decision (`config approve=…`).
 */
import { z } from 'zod';
import type { ReviewAnswer, Trigger } from '../../core/trigger.js';
import { decodeThreadKey, settingsScopeOf } from '../../core/thread-key.js';
import type { Logger } from '../../core/ports/index.js';
import type { SlackRoutes } from '../api/routes.js';
import { CHANGES_CALLBACK_ID, REVIEW_ACTION_IDS } from '../api/action-ids.js';
import { readReviewValue } from '../api/review-value.js';
import { slackThreadKey } from '../api/slack-address.js';
import { slackErrorName } from '../api/delivery-errors.js';
import type { Conversion, ConvertContext } from './conversion.js';
import { BlockActions, ButtonAction } from './payloads.js';
import { fromRunButton } from './to-trigger-interactive.js';
import type { Admission } from './access.js';
import type { EventAuth, Whisper } from './listeners.js';
import { refusalText } from './access.js';

type Triggered = Extract<Conversion, { trigger: Trigger }>;

export interface ReviewListenerDeps {
  log: Logger;
  context(auth?: EventAuth): Promise<ConvertContext>;
  admitted(conv: Triggered, auth: EventAuth | undefined): Promise<Admission>;
  accept(trigger: Trigger): Promise<void>;
  whisper: Whisper;
}

const TriggerId = z.object({ trigger_id: z.string().min(1) });

/** What the changes form carries back: the run, the version, and where it was asked. */
const ChangesMetadata = z.object({
  runId: z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/),
  version: z.number().int().positive(),
  team: z.string().min(1),
  channel: z.string().min(1),
  threadTs: z.string(),
  messageTs: z.string().min(1),
});
type ChangesMetadata = z.infer<typeof ChangesMetadata>;

const ChangesSubmission = z.object({
  type: z.literal('view_submission'),
  user: z.object({
    id: z.string(),
    name: z.string().optional(),
    username: z.string().optional(),
    team_id: z.string().optional(),
  }),
  view: z.object({
    id: z.string().min(1),
    private_metadata: z.string(),
    state: z.object({
      values: z.object({
        changes: z.object({ value: z.object({ value: z.string().nullish() }) }),
      }),
    }),
  }),
});

/** The most a person may write in the form (Slack's own limit for a text input is 3,000). */
const MAX_CHANGES_CHARS = 3_000;

function changesForm(metadata: ChangesMetadata): Record<string, unknown> {
  return {
    type: 'modal',
    callback_id: CHANGES_CALLBACK_ID,
    private_metadata: JSON.stringify(metadata),
    title: { type: 'plain_text', text: 'Request changes' },
    submit: { type: 'plain_text', text: 'Send' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      {
        type: 'input',
        block_id: 'changes',
        label: { type: 'plain_text', text: 'What should the plan do differently?' },
        element: {
          type: 'plain_text_input',
          action_id: 'value',
          multiline: true,
          max_length: MAX_CHANGES_CHARS,
        },
      },
    ],
  };
}

/** A press as a trigger: the run button's conversion, with the answer and its version. */
function reviewConversion(
  body: BlockActions,
  button: ButtonAction,
  answer: ReviewAnswer,
  ctx: ConvertContext,
): Conversion {
  const bound = readReviewValue(button.value ?? '');
  if (bound === undefined) return { type: 'ignore', reason: 'answer button without its run' };
  const conv = fromRunButton(
    body,
    { runId: bound.runId, ...(button.action_ts ? { actionTs: button.action_ts } : {}) },
    ctx,
    'status',
  );
  if (conv.type === 'ignore') return conv;
  conv.trigger = {
    ...conv.trigger,
    kind: 'review_answer',
    text: `${answer} ${bound.runId}`,
    review: { answer, version: bound.version },
  };
  return conv;
}

export function registerReviewListeners(routes: SlackRoutes, deps: ReviewListenerDeps): void {
  const { log } = deps;

  async function admitAndAccept(conv: Triggered, auth: EventAuth | undefined): Promise<void> {
    const where = {
      channel: conv.channel,
      user: conv.user,
      ...(conv.threadTs === undefined ? {} : { threadTs: conv.threadTs }),
    };
    const verdict = await deps.admitted(conv, auth);
    if (!verdict.ok) {
      deps.whisper(where, refusalText(verdict.denial));
      return;
    }
    await deps.accept(conv.trigger);
  }

  const pressed = Object.entries(REVIEW_ACTION_IDS) as [ReviewAnswer, string][];
  for (const [answer, actionId] of pressed) {
    routes.action(actionId, async ({ body, action, ack, client, context: auth }) => {
      await ack();
      const payload = BlockActions.safeParse(body);
      const button = ButtonAction.safeParse(action);
      if (!payload.success || !button.success) {
        log.warn({ answer }, 'Slack answer button payload not understood; ignored');
        return;
      }
      const conv = reviewConversion(payload.data, button.data, answer, await deps.context(auth));
      if (conv.type !== 'trigger') return;
      if (answer !== 'changes') {
        await admitAndAccept(conv, auth);
        return;
      }
      // Request changes: the words come from a form; the press itself changes nothing.
      const verdict = await deps.admitted(conv, auth);
      const triggerId = TriggerId.safeParse(body);
      if (!verdict.ok || !triggerId.success) {
        if (!verdict.ok) deps.whisper(conv, refusalText(verdict.denial));
        return;
      }
      const bound = readReviewValue(button.data.value ?? '')!;
      const address = decodeThreadKey(conv.trigger.threadKey);
      if (address?.platform !== 'slack') return;
      const metadata: ChangesMetadata = {
        runId: bound.runId,
        version: bound.version,
        team: address.team,
        channel: conv.channel,
        threadTs: address.threadTs,
        messageTs: payload.data.message?.ts ?? payload.data.container?.message_ts ?? '',
      };
      await client.views
        .open({ trigger_id: triggerId.data.trigger_id, view: changesForm(metadata) as never })
        .catch((err: unknown) =>
          log.warn({ err, slackError: slackErrorName(err) }, 'Slack changes form not opened'),
        );
    });
  }

  routes.view(CHANGES_CALLBACK_ID, async ({ ack, body, context: auth }) => {
    const submission = ChangesSubmission.safeParse(body);
    let metadata: ChangesMetadata | undefined;
    try {
      const read = ChangesMetadata.safeParse(
        JSON.parse(submission.data?.view.private_metadata ?? ''),
      );
      metadata = read.success ? read.data : undefined;
    } catch {
      metadata = undefined;
    }
    const text = submission.data?.view.state.values.changes.value.value?.trim() ?? '';
    if (!submission.success || metadata === undefined) {
      log.warn({}, 'Slack changes form not understood; ignored');
      await ack({ response_action: 'errors', errors: { changes: 'Please open the form again.' } });
      return;
    }
    if (text === '') {
      await ack({ response_action: 'errors', errors: { changes: 'Say what to change.' } });
      return;
    }
    // The form is for the workspace it was opened in.
    const ctx = await deps.context(auth);
    if ((ctx.teamId ?? metadata.team) !== metadata.team) {
      await ack({ response_action: 'errors', errors: { changes: 'Please open the form again.' } });
      return;
    }
    await ack();
    const { user, view } = submission.data;
    const name = user.username ?? user.name;
    const trigger: Trigger = {
      platform: 'slack',
      kind: 'review_answer',
      threadKey: slackThreadKey(metadata.team, metadata.channel, metadata.threadTs),
      actor: { id: user.id, ...(name === undefined ? {} : { name }) },
      text: `changes ${text}`,
      addressed: true,
      context: {},
      deliveryId: `form:${view.id}`,
      receivedAt: new Date(ctx.now).toISOString(),
      settingsScope: settingsScopeOf({
        platform: 'slack',
        team: metadata.team,
        channel: metadata.channel,
        threadTs: '',
      }),
      replyPrivatelyTo: user.id,
      runId: metadata.runId,
      review: { answer: 'changes', version: metadata.version },
    };
    await admitAndAccept(
      {
        type: 'trigger',
        trigger,
        channel: metadata.channel,
        user: user.id,
        ...(metadata.threadTs === '' ? {} : { threadTs: metadata.threadTs }),
        ...(user.team_id === undefined ? {} : { userTeam: user.team_id }),
      },
      auth,
    );
  });
}
