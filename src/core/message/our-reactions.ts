/**
 * The reactions the relay put on a run's trigger message, recorded on the run's copy of the
 * message ref: a superseded reaction is taken off only when the relay added it, so no removal
 * asks the platform for a reaction that is not there.
 */
import type { MessageRef } from '../trigger.js';
import type { ReactionName } from './message-model.js';

/** The ref with the reactions the relay has on it now. */
export function withOurReactions(ref: MessageRef, reactions: readonly ReactionName[]): MessageRef {
  return { ...ref, reactions: [...new Set(reactions)] };
}

/**
 * Which of `superseded` to take off: those recorded as ours. A ref without a record (written
 * before reactions were recorded) falls back to all of them.
 */
export function oursToTakeOff(
  ref: MessageRef,
  superseded: readonly ReactionName[],
): ReactionName[] {
  if (ref.reactions === undefined) return [...superseded];
  return superseded.filter((r) => ref.reactions!.includes(r));
}

/** The ref after `reaction` was added and `removed` taken off. */
export function afterReacting(
  ref: MessageRef,
  reaction: ReactionName | undefined,
  removed: readonly ReactionName[],
): MessageRef {
  const kept = (ref.reactions ?? []).filter((r) => !removed.includes(r));
  return withOurReactions(ref, reaction === undefined ? kept : [...kept, reaction]);
}

/** A message ref as a reaction's target: the record of ours is not the platform's business. */
export function reactionTarget(ref: MessageRef): MessageRef {
  const { reactions: _ours, ...target } = ref;
  return target;
}
