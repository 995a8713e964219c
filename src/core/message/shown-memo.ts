/**
 * What each recent message of ours says (a hash of its rendering), so that a notifier skips an
 * edit to the same words. Bounded; after a restart the first edit of a message is sent anyway.
 */
import { createHash } from 'node:crypto';

export interface ShownMemo {
  says(id: string, rendered: string): boolean;
  remember(id: string, rendered: string): void;
}

export function createShownMemo(limit = 2_000): ShownMemo {
  const seen = new Map<string, string>();
  const digest = (text: string) => createHash('sha256').update(text).digest('base64');
  return {
    says: (id, rendered) => seen.get(id) === digest(rendered),
    remember(id, rendered) {
      seen.delete(id);
      seen.set(id, digest(rendered));
      if (seen.size > limit) seen.delete(seen.keys().next().value as string);
    },
  };
}
