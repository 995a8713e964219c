/**
 * A press of Stop or Cancel on a run's status card: an `adaptiveCard/action` invoke
 * (Universal Actions) whose `Action.Execute` carries the verb and the run's id. Teams shows
 * the invoke's answer to the person who pressed, and only to them, so who may is decided
 * here, before the inbox, from the relay's own record of the run (no platform is asked): the
 * person who started the run, or one of TEAMS_ADMIN_USERS. Anyone else gets a private
 * refusal and nothing changes. The runs check again (`mayCancel`).
 */
import type { RunRecord } from '../../core/ports/index.js';
import { settingsScopeOf, tenantOf } from '../../core/thread-key.js';
import type { Trigger } from '../../core/trigger.js';
import {
  CARD_VERBS,
  CardAction,
  splitConversationId,
  tenantOfActivity,
  type Activity,
} from '../api/activity.js';
import type { WebhookAnswer } from '../../platform/webhook-endpoint.js';
import { personOf, threadOf, type TeamsPeopleRules } from './to-trigger.js';

/** An invoke response that shows `text` to the person who pressed (Universal Actions). */
export function privateAnswer(text: string): WebhookAnswer {
  return {
    status: 200,
    body: { statusCode: 200, type: 'application/vnd.microsoft.activity.message', value: text },
  };
}

/** An invoke response that replaces the card for the person whose client asked (a refresh). */
export function cardAnswer(card: unknown): WebhookAnswer {
  return {
    status: 200,
    body: { statusCode: 200, type: 'application/vnd.microsoft.card.adaptive', value: card },
  };
}

/**
 * The card for a refresh of `run`'s status card (built from the relay's record of it, so any
 * replica can answer): with Stop and Cancel when `live`.
 */
export type RefreshCard = (run: RunRecord, live: boolean) => unknown;

export type CardPress =
  { kind: 'trigger'; trigger: Trigger } | { kind: 'answer'; answer: WebhookAnswer };

export async function fromCardAction(
  activity: Activity,
  rules: TeamsPeopleRules,
  runs: { get(runId: string): Promise<RunRecord | undefined> },
  receivedAt: string,
  refreshCard?: RefreshCard,
): Promise<CardPress> {
  const parsed = CardAction.safeParse(activity.value);
  if (!parsed.success)
    return { kind: 'answer', answer: privateAnswer('That button is not one of mine.') };
  const { verb, data } = parsed.data.action;
  const runId = typeof data?.runId === 'string' ? data.runId : undefined;
  const known =
    verb === CARD_VERBS.stop || verb === CARD_VERBS.cancel || verb === CARD_VERBS.refresh;
  if (!known || runId === undefined)
    return { kind: 'answer', answer: privateAnswer('That button is not one of mine.') };
  const person = personOf(activity, rules);
  if ('refused' in person)
    return { kind: 'answer', answer: privateAnswer('You cannot use agent-relay here.') };
  const place = threadOf(activity);
  const run = await runs.get(runId);
  const tenant = tenantOfActivity(activity);
  // The run must be this conversation's: a card copied elsewhere acts on nothing.
  const conversation = splitConversationId(activity.conversation.id).conversation;
  if (
    run === undefined ||
    'ignored' in place ||
    tenantOf(run.threadKey) !== `teams:${tenant}` ||
    settingsScopeOf(run.threadKey) !== `teams:${tenant}:${conversation}`
  )
    return { kind: 'answer', answer: privateAnswer('I have no such run here.') };
  const { actor } = person;
  const may = run.requester.id === actor.id || actor.admin === true;
  if (verb === CARD_VERBS.refresh) {
    const card = refreshCard?.(run, may);
    return {
      kind: 'answer',
      answer:
        card === undefined
          ? privateAnswer(`Say “@agent-relay status ${runId}” for where “${run.title}” stands.`)
          : cardAnswer(card),
    };
  }
  if (!may) {
    const what = verb === CARD_VERBS.stop ? 'stop' : 'cancel';
    return {
      kind: 'answer',
      answer: privateAnswer(
        `Only the person who started “${run.title}”, or an admin of agent-relay, can ${what} it.`,
      ),
    };
  }
  return {
    kind: 'trigger',
    trigger: {
      platform: 'teams',
      kind: verb === CARD_VERBS.stop ? 'stop_button' : 'cancel_button',
      threadKey: run.threadKey,
      actor,
      text: verb,
      addressed: true,
      context: {},
      deliveryId: `teams:${tenant}:${conversation}:${activity.id ?? `${verb}:${runId}`}`,
      receivedAt,
      settingsScope: settingsScopeOf(run.threadKey) ?? run.threadKey,
      runId,
    },
  };
}
