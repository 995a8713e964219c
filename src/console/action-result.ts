/**
 * What a Retry or Discard did, said on the page the operator comes back to: the result rides
 * in that page's address (`did`, `n`, `of`), only numbers and fixed words, so the notice is
 * built here from known text and never from anything a link could smuggle in.
 */
import type { GivenUpKind } from '../core/ports/index.js';

export interface ActionResult {
  action: 'retry' | 'discard';
  kind: GivenUpKind;
  /** Items acted on. */
  done: number;
  /** Items asked for. */
  asked: number;
}

const PARAMS = ['did', 'n', 'of'] as const;

/** `back` (a console path) with the result of an action in its query. */
export function withResult(back: string, r: ActionResult): string {
  const url = new URL(back, 'http://console.invalid');
  for (const p of PARAMS) url.searchParams.delete(p);
  url.searchParams.set('did', `${r.action}-${r.kind}`);
  url.searchParams.set('n', String(r.done));
  url.searchParams.set('of', String(r.asked));
  return url.pathname + url.search;
}

/** A console path without an earlier action's result (where the next one comes back to). */
export function withoutResult(path: string): string {
  const url = new URL(path, 'http://console.invalid');
  for (const p of PARAMS) url.searchParams.delete(p);
  return url.pathname + url.search;
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The notice for a result in a page's query; undefined when there is none (or it is not one). */
export function noticeOf(query: URLSearchParams): string | undefined {
  const did = /^(retry|discard)-(notification|trigger)$/.exec(query.get('did') ?? '');
  const n = Number(query.get('n'));
  const of = Number(query.get('of'));
  if (!did || !Number.isSafeInteger(n) || !Number.isSafeInteger(of) || n < 0 || of < n || of > 1e4)
    return undefined;
  const [, action, kind] = did;
  const noun =
    kind === 'notification'
      ? (k: number) => count(k, 'parked notification', 'parked notifications')
      : (k: number) => count(k, 'failed trigger', 'failed triggers');
  const status = kind === 'notification' ? 'parked' : 'failed';
  const rest = of - n;
  const leftAlone =
    rest === 0
      ? ''
      : ` ${rest === of ? (of === 1 ? 'It was' : `All ${of} were`) : `${rest} of the ${of} were`} no longer ${status} (retried or discarded meanwhile) and ${rest === 1 ? 'was' : 'were'} left alone.`;
  if (n === 0) return `Nothing was ${action === 'retry' ? 'retried' : 'discarded'}.${leftAlone}`;
  if (action === 'discard') {
    const fate = kind === 'notification' ? 'never to be delivered' : 'never to be carried out';
    return `Discarded ${noun(n)}: deleted, ${fate}.${leftAlone}`;
  }
  return kind === 'notification'
    ? `Put ${noun(n)} back in their threads' queues, due now.${leftAlone}`
    : `Handed ${noun(n)} to the inbox again, to be carried out as if just received.${leftAlone}`;
}
