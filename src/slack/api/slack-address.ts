/**
 * Where things are on Slack: thread keys (through core/thread-key.ts, the only parser) and
 * message ids (`channel:ts`, opaque to the core, read only here).
 */
import { DeliveryError } from '../../core/ports/index.js';
import type { ThreadAddress } from '../../core/thread-key.js';
import { decodeThreadKey, encodeThreadKey } from '../../core/thread-key.js';
import type { MessageRef } from '../../core/trigger.js';

export type SlackAddress = Extract<ThreadAddress, { platform: 'slack' }>;

export function slackAddress(threadKey: string): SlackAddress {
  const addr = decodeThreadKey(threadKey);
  if (addr === undefined || addr.platform !== 'slack') {
    throw new DeliveryError('invalid', 'not a Slack thread key', false);
  }
  return addr;
}

export function slackThreadKey(team: string, channel: string, threadTs: string): string {
  return encodeThreadKey({ platform: 'slack', team, channel, threadTs });
}

export function messageId(channel: string, ts: string): string {
  return `${channel}:${ts}`;
}

const MESSAGE_ID = /^([A-Za-z0-9]{1,64}):(\d{1,20}\.\d{1,20})$/;

export function parseMessageId(ref: MessageRef): { channel: string; ts: string } {
  const m = MESSAGE_ID.exec(ref.id);
  if (m === null || m[1] === undefined || m[2] === undefined) {
    throw new DeliveryError('invalid', 'not a Slack message reference', false);
  }
  return { channel: m[1], ts: m[2] };
}

/** Order of Slack timestamps (`seconds.micros`), exact (no float rounding). */
export function compareTs(a: string, b: string): number {
  const [as = '0', af = ''] = a.split('.');
  const [bs = '0', bf = ''] = b.split('.');
  const sec = BigInt(as) - BigInt(bs);
  if (sec !== 0n) return sec < 0n ? -1 : 1;
  const fa = af.padEnd(9, '0');
  const fb = bf.padEnd(9, '0');
  return fa === fb ? 0 : fa < fb ? -1 : 1;
}
