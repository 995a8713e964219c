/**
 * The relay's stamp on every run it creates (agent-api.md: metadata is a string map, keys of
 * `[A-Za-z0-9._-]`, values of at most 256 bytes). The request id lets a restarted process
 * find a run whose create may have reached the service (reconciliation).
 */
import { createHash } from 'node:crypto';
import type { InboxItem } from '../../core/ports/index.js';
import type { Trigger } from '../../core/trigger.js';

export const METADATA_VALUE_MAX_BYTES = 256;
const HASH_HEX_CHARS = 32;

/** The value itself when it fits in 256 bytes; otherwise a readable prefix plus a hash. */
export function fitMetadataValue(value: string): string {
  if (Buffer.byteLength(value, 'utf8') <= METADATA_VALUE_MAX_BYTES) return value;
  const hash = createHash('sha256').update(value, 'utf8').digest('hex').slice(0, HASH_HEX_CHARS);
  const budget = METADATA_VALUE_MAX_BYTES - HASH_HEX_CHARS - 1;
  let prefix = '';
  for (const ch of value) {
    if (Buffer.byteLength(prefix + ch, 'utf8') > budget) break;
    prefix += ch;
  }
  return `${prefix}~${hash}`;
}

/**
 * One request id per inbox item: derived from the platform's delivery id, so every retry of
 * the same item (after a crash or an outage) looks for the same run.
 */
export function requestIdFor(item: Pick<InboxItem, 'trigger'>): string {
  // The platform's own delivery id, which people and logs know, not the inbox's key (for a
  // signed webhook, an identity of its body: one request is still one delivery).
  return fitMetadataValue(`${item.trigger.platform}:${item.trigger.deliveryId}`);
}

/** The tag `list mine` compares against: who asked, on which platform. */
export function actorTag(trigger: Pick<Trigger, 'platform' | 'actor'>): string {
  return fitMetadataValue(`${trigger.platform}:${trigger.actor.id}`);
}

/** The tag `list` in a place filters by: the channel or repository the run started from. */
export function placeTag(trigger: Pick<Trigger, 'settingsScope'>): string {
  return fitMetadataValue(trigger.settingsScope);
}

export function runMetadata(input: {
  trigger: Trigger;
  threadKey: string;
  requestId: string;
}): Record<string, string> {
  const metadata: Record<string, string> = {
    relay_thread: fitMetadataValue(input.threadKey),
    relay_place: placeTag(input.trigger),
    relay_platform: input.trigger.platform,
    relay_request: input.requestId,
    relay_actor: actorTag(input.trigger),
  };
  const permalink = input.trigger.context.permalink;
  if (permalink && Buffer.byteLength(permalink, 'utf8') <= METADATA_VALUE_MAX_BYTES) {
    metadata.relay_source_url = permalink;
  }
  return metadata;
}
