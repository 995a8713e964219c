/**
 * What the ingress does with a verified, parsed webhook: interpret it, drop what does not
 * address the bot, apply the permission gate (refusing politely through the RefusalSink),
 * and hand everything else on for the inbox. No run logic lives here, and no call to GitHub:
 * what a run needs beyond the payload (a pull request's branches) the use case looks up.
 */
import { parseCommand } from '../../core/command/parse-command.js';
import type { Logger } from '../../core/ports/index.js';
import type { Trigger } from '../../core/trigger.js';
import { interpretEvent, type Permission } from './interpret-event.js';
import { refusalMessage, type RefusalSink } from './refusal.js';

export interface DispatchDeps {
  botHandle: string;
  botLogin?: string;
  triggerLabel: string;
  allowedAssociations: string[];
  commandWord: string;
  refusals?: RefusalSink;
  maxBodyChars: number;
  /** Tell the notifier which installation serves a repository (App auth). */
  onInstallation?: (owner: string, repo: string, installationId: number) => void;
}

export type DispatchResult =
  | { result: 'pong' }
  /** For the inbox. */
  | { result: 'trigger'; trigger: Trigger; log: Logger }
  | { result: 'ignored'; reason: string }
  | { result: 'refused'; detail: 'queued' | 'duplicate' | 'suppressed' | 'no_refusal_sink' }
  | { result: 'invalid'; problem: string };

export function createWebhookDispatcher(deps: DispatchDeps) {
  const allowed = new Set(
    deps.allowedAssociations.map((a) => a.trim().toUpperCase()).filter((a) => a !== ''),
  );
  const isAllowed = (p: Permission): boolean =>
    p.kind !== 'association' || allowed.has(p.value.toUpperCase());

  return async function dispatch(
    event: string,
    deliveryId: string,
    payload: unknown,
    receivedAt: string,
    log: Logger,
    /** An identity of the signed body: what the inbox dedupes on. */
    payloadId?: string,
  ): Promise<DispatchResult> {
    if (event === 'ping') return { result: 'pong' };
    const meaning = interpretEvent(event, payload, {
      botHandle: deps.botHandle,
      botLogin: deps.botLogin,
      triggerLabel: deps.triggerLabel,
      maxBodyChars: deps.maxBodyChars,
      deliveryId,
      receivedAt,
    });
    if (meaning.kind !== 'candidate') {
      return meaning.kind === 'ignore'
        ? { result: 'ignored', reason: meaning.reason }
        : { result: 'invalid', problem: meaning.problem };
    }
    const { trigger, owner, repo } = meaning;
    if (meaning.installationId !== undefined) {
      deps.onInstallation?.(owner, repo, meaning.installationId);
    }
    if (!trigger.addressed) {
      const parsed = parseCommand({
        text: trigger.text,
        addressed: false,
        platform: 'github',
        botHandle: deps.botHandle,
        commandWord: deps.commandWord,
      });
      if (parsed.kind === 'ignore') return { result: 'ignored', reason: parsed.reason };
    }
    const tlog = log.child({ threadKey: trigger.threadKey, actor: trigger.actor.id });
    if (!isAllowed(meaning.permission)) {
      tlog.info({ association: trigger.actor.association }, 'author may not trigger runs');
      if (!deps.refusals) return { result: 'refused', detail: 'no_refusal_sink' };
      const detail = await deps.refusals.refuse({
        deliveryId,
        threadKey: trigger.threadKey,
        actor: trigger.actor,
        triggerMessage: trigger.triggerMessage,
        message: refusalMessage(trigger.actor, [...allowed]),
      });
      return { result: 'refused', detail };
    }
    return {
      result: 'trigger',
      trigger: payloadId === undefined ? trigger : { ...trigger, dedupeKey: payloadId },
      log: tlog,
    };
  };
}

export type WebhookDispatcher = ReturnType<typeof createWebhookDispatcher>;
