/**
 * The id of an agent activity, derived from the outbox's stable notification key: Linear
 * accepts the client's own UUID v4 for `agentActivityCreate`, so a retried delivery names the
 * same activity and Linear refuses the copy instead of showing it twice.
 */
import { createHash } from 'node:crypto';

export function activityIdFor(key: string): string {
  const hex = createHash('sha256').update(`linear-activity:${key}`).digest('hex');
  // Version 4, variant 10xx: the shape Linear checks.
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    `4${hex.slice(13, 16)}`,
    `${variant}${hex.slice(17, 20)}`,
    hex.slice(20, 32),
  ].join('-');
}
