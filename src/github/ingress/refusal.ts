/**
 * GitHub's words for the one polite reply to an author who may not trigger runs; the reply
 * goes through the platform kit's outbox refusal sink (`src/platform/refusals.ts`).
 */
import type { MessageModel } from '../../core/message/message-model.js';
import type { Actor } from '../../core/trigger.js';

export {
  createOutboxRefusalSink,
  type OutboxRefusalSinkDeps,
  type Refusal,
  type RefusalSink,
} from '../../platform/refusals.js';

const ASSOCIATION_WORDS: Record<string, string> = {
  OWNER: 'the repository owner',
  MEMBER: 'members of the organization',
  COLLABORATOR: 'collaborators',
  CONTRIBUTOR: 'contributors',
  FIRST_TIME_CONTRIBUTOR: 'first-time contributors',
  FIRST_TIMER: 'first-time GitHub users',
  MANNEQUIN: 'mannequins',
  NONE: 'anyone',
};

function listWords(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1] ?? ''}`;
}

/** The refusal notice: who may trigger runs, addressed to the person who tried. */
export function refusalMessage(actor: Actor, allowedAssociations: string[]): MessageModel {
  const who = listWords(allowedAssociations.map((a) => ASSOCIATION_WORDS[a.toUpperCase()] ?? a));
  return {
    type: 'notice',
    tone: 'info',
    mention: { platform: 'github', id: actor.id, name: actor.name },
    text:
      `Thanks for the request. Agent runs in this repository can be started, steered or ` +
      `cancelled only by ${who || 'nobody (no author association is allowed)'}. ` +
      `Please ask one of them to mention me for you.`,
  };
}
