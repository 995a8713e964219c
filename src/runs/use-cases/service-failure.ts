/**
 * What a failed attempt at a trigger means for the person and for the inbox item
 *. Pure: the caller writes the decision in one transaction.
 */
import type { MessageModel, PersonView } from '../../core/message/message-model.js';
import type { InboxItem } from '../../core/ports/index.js';
import { isServiceError } from '../../core/ports/index.js';
import { AccessUnknown } from './check-access.js';
import { refusalFor } from './refusal-notice.js';

export type FailureDecision =
  /**
   * Tell the person and complete the item: retrying would not help. `privateMessage` goes to
   * the requester alone (a personal authorization link), `operatorMustAct` when an
   * administrator has to fix something (the log line is an error then).
   */
  | {
      action: 'complete';
      message: MessageModel;
      error: string;
      privateMessage?: MessageModel;
      operatorMustAct?: boolean;
    }
  /** Keep the item for a later attempt; `message` is the one-time wait notice, if due. */
  | { action: 'retry'; at: number; message?: MessageModel; error: string }
  /** Out of attempts: apologise and fail the item. */
  | { action: 'fail'; message: MessageModel; error: string };

/** Non-service errors (bugs) get this many attempts in all. */
export const BUG_ATTEMPTS = 3;

function notice(
  tone: 'info' | 'warning' | 'error',
  text: string,
  mention?: PersonView,
): MessageModel {
  return { type: 'notice', tone, text, ...(mention ? { mention } : {}) };
}

function describe(err: unknown): string {
  if (isServiceError(err)) {
    return `${err.code}${err.status ? ` ${err.status}` : ''}${err.serviceCode ? ` ${err.serviceCode}` : ''}: ${err.message}`;
  }
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

function isTransient(err: unknown): boolean {
  if (!isServiceError(err)) return false;
  if (err.outcomeUnknown) return true;
  return (
    err.code === 'rate_limit' ||
    err.code === 'internal_server' ||
    err.code === 'connection' ||
    err.code === 'connection_timeout'
  );
}

export function decideFailure(input: {
  err: unknown;
  item: Pick<InboxItem, 'attempts' | 'waitNoticeSent'>;
  now: number;
  retryDelaysMs: readonly number[];
  mention?: PersonView;
  /** The requester can be told something privately here (Slack; GitHub cannot). */
  canTellPrivately?: boolean;
}): FailureDecision {
  const { err, item, now, mention } = input;
  const error = describe(err);
  const refusal = isServiceError(err)
    ? refusalFor(err, {
        ...(mention ? { mention } : {}),
        canTellPrivately: input.canTellPrivately ?? false,
      })
    : undefined;
  if (refusal) {
    return {
      action: 'complete',
      message: refusal.message,
      error,
      operatorMustAct: refusal.operatorMustAct,
      ...(refusal.privateMessage ? { privateMessage: refusal.privateMessage } : {}),
    };
  }
  if (isTransient(err)) {
    const delay = input.retryDelaysMs[item.attempts];
    if (delay === undefined) {
      const tries = item.attempts + 1;
      const text = `Sorry: the Agent Run Service stayed unavailable, so your request was not carried out (tried ${tries} times). Please try again later.`;
      return { action: 'fail', message: notice('error', text, mention), error };
    }
    const retryAfter = isServiceError(err) ? (err.retryAfterMs ?? 0) : 0;
    const at = now + Math.max(delay, retryAfter);
    const message = item.waitNoticeSent
      ? undefined
      : notice(
          'warning',
          'The Agent Run Service is unavailable right now. Your request is saved and will be retried automatically; there is no need to send it again.',
          mention,
        );
    return { action: 'retry', at, error, ...(message ? { message } : {}) };
  }
  if (isServiceError(err)) {
    const what =
      err.code === 'not_found'
        ? 'The Agent Run Service could not find that'
        : 'The Agent Run Service did not accept the request';
    const detail = err.detail ?? err.serviceCode ?? (err.status ? `HTTP ${err.status}` : err.code);
    return { action: 'complete', message: notice('error', `${what}: ${detail}`, mention), error };
  }
  if (err instanceof AccessUnknown) {
    // check-access.ts throws it only while attempts are left: quietly, nothing was done yet.
    return { action: 'retry', at: now + (input.retryDelaysMs[item.attempts] ?? 5_000), error };
  }
  if (item.attempts + 1 < BUG_ATTEMPTS) {
    const delay = input.retryDelaysMs[item.attempts] ?? 5_000;
    return { action: 'retry', at: now + delay, error };
  }
  return {
    action: 'fail',
    message: notice(
      'error',
      'Sorry: agent-relay hit an internal error while handling your request. It has been logged; please try again.',
      mention,
    ),
    error,
  };
}
