/**
 * One inbox item being handled: the trigger, its thread (aliases resolved), the request id
 * stamped on a run it creates, where answers go, and a child logger. Use cases return
 * `Effects`: the writes and notifications the handler commits in ONE transaction together
 * with completing the inbox item.
 */
import type { MessageModel, PersonView } from '../../core/message/message-model.js';
import type {
  Destination,
  InboxItem,
  Logger,
  OutboxPayload,
  PlatformCapabilities,
  SettingRecord,
  StoreTx,
} from '../../core/ports/index.js';
import { NO_CAPABILITIES } from '../../core/ports/index.js';
import type { Trigger } from '../../core/trigger.js';
import { requestIdFor } from './run-metadata.js';
import type { RunsDeps } from '../runs-deps.js';

export interface TriggerJob {
  item: InboxItem;
  trigger: Trigger;
  /** The thread key after alias resolution. */
  threadKey: string;
  requestId: string;
  /** Where answers to this trigger go (privately to the caller for slash commands). */
  reply: Destination;
  /** The person who asked, for mentions in notices. */
  actor: PersonView;
  /** What the trigger's platform can do (a private answer, buttons). */
  capabilities: PlatformCapabilities;
  /**
   * A run-creating attempt whose earlier attempt may have reached the service: a retry, or
   * an item that waited at least one lease (a crashed worker). Reconcile before creating.
   */
  mayHaveRunBefore: boolean;
  log: Logger;
  /** Called after the handler's transaction committed (e.g. nudge the tracker). */
  afterCommit: (() => void)[];
  /**
   * Called once the request is settled: its writes committed, or the request given up (not
   * when it will be tried again). What it held until then is given back (a budget's hold).
   */
  whenSettled: (() => Promise<void>)[];
  /**
   * The settings of each scope asked for while this trigger is handled, read once: a start
   * asks for the place's and the person's defaults and then for their budgets.
   */
  settingsRead: Map<string, Promise<SettingRecord[]>>;
  /** Its start message is recorded (acknowledge.ts): no need to read it to know. */
  acknowledged?: boolean;
  /** Counted among the triggers waiting for the service until it is done (deferral.ts). */
  admitted?: boolean;
}

/** A scope's settings as this trigger first read them (one read per scope and trigger). */
export function settingsOf(
  deps: Pick<RunsDeps, 'store'>,
  job: Pick<TriggerJob, 'settingsRead'>,
  scope: string,
): Promise<SettingRecord[]> {
  let read = job.settingsRead.get(scope);
  if (read === undefined) {
    read = deps.store.settings.list(scope);
    job.settingsRead.set(scope, read);
  }
  return read;
}

export type Effects = (tx: StoreTx, now: number) => Promise<void>;

export const noEffects: Effects = async () => {};

/** Each of `effects`, one after the other, in the one transaction. */
export function inOrder(...effects: Effects[]): Effects {
  return async (tx, now) => {
    for (const effect of effects) await effect(tx, now);
  };
}

export function enqueue(...payloads: OutboxPayload[]): Effects {
  return async (tx, now) => {
    for (const payload of payloads) await tx.outbox.enqueue(payload, now);
  };
}

/** A reply to the trigger (privately to the caller when the trigger asks for that). */
export function replyWith(job: TriggerJob, message: MessageModel): Effects {
  return enqueue({ kind: 'post', destination: job.reply, message });
}

/**
 * An answer meant for the asker alone: private where the platform has private answers
 * (ephemeral, in the thread it was asked in); elsewhere a reply in the conversation.
 */
export function privateDestination(job: TriggerJob): Destination {
  if (!job.capabilities.ephemeral) return job.reply;
  // A slash command or a button already answers privately (with the command's response_url).
  if (job.reply.privateTo !== undefined) return job.reply;
  // A slash-command prompt: its response_url reaches the caller even where the bot is not.
  const { responseUrl } = job.trigger;
  return {
    threadKey: job.threadKey,
    privateTo: job.trigger.actor.id,
    ...(responseUrl ? { responseUrl } : {}),
  };
}

export function replyPrivately(job: TriggerJob, message: MessageModel): Effects {
  return enqueue({ kind: 'post', destination: privateDestination(job), message });
}

export async function prepareJob(deps: RunsDeps, item: InboxItem): Promise<TriggerJob> {
  const { trigger } = item;
  const threadKey = await deps.store.threads.resolve(trigger.threadKey);
  const now = deps.clock.now();
  const reply: Destination = trigger.replyPrivatelyTo
    ? {
        threadKey,
        privateTo: trigger.replyPrivatelyTo,
        ...(trigger.responseUrl ? { responseUrl: trigger.responseUrl } : {}),
      }
    : { threadKey };
  const actor: PersonView = {
    platform: trigger.platform,
    id: trigger.actor.id,
    ...(trigger.actor.name ? { name: trigger.actor.name } : {}),
  };
  return {
    item,
    trigger,
    threadKey,
    requestId: requestIdFor(item),
    reply,
    actor,
    capabilities: deps.capabilities[trigger.platform] ?? NO_CAPABILITIES,
    // A resumed trigger was deferred before any call to the service, by an attempt that could
    // not have reached it either (deferral.ts): however long it waited, nothing to look for.
    mayHaveRunBefore:
      item.attempts > 0 || (!item.resumed && now - item.createdAt >= deps.options.leaseMs),
    afterCommit: [],
    whenSettled: [],
    settingsRead: new Map(),
    log: deps.logger.child({
      deliveryId: item.deliveryId,
      threadKey,
      inboxId: item.id,
      attempt: item.attempts + 1,
    }),
  };
}
