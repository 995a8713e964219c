/**
 * The ids of the reactions the relay added, as the platform gave them back when it added
 * them. A platform whose reactions are deleted by id (GitHub) takes a superseded reaction off
 * by the id recorded here, so removal never depends on whose name the reaction shows (an App's
 * `<handle>[bot]` or the person a plain token belongs to).
 */

/** One message a reaction is on: its thread and the platform's message id. */
export interface ReactedMessage {
  threadKey: string;
  messageId: string;
}

export interface RecordedReaction {
  content: string;
  reactionId: string;
}

export interface ReactionIds {
  /** Remember that the relay added `content` to the message, with this platform id. */
  added(on: ReactedMessage, content: string, reactionId: string, at: number): Promise<void>;
  /** The recorded reactions of these contents on the message. */
  find(on: ReactedMessage, contents: readonly string[]): Promise<RecordedReaction[]>;
  /** Forget a recorded reaction (it was taken off, or was gone already). */
  removed(on: ReactedMessage, content: string): Promise<void>;
}

/** Reaction ids kept in this process only: for a notifier given no store (tests, tools). */
export function createMemoryReactionIds(): ReactionIds {
  const kept = new Map<string, string>();
  const key = (on: ReactedMessage, content: string) =>
    `${on.threadKey}\u0000${on.messageId}\u0000${content}`;
  return {
    added(on, content, reactionId) {
      kept.set(key(on, content), reactionId);
      return Promise.resolve();
    },
    find(on, contents) {
      const found: RecordedReaction[] = [];
      for (const content of new Set(contents)) {
        const reactionId = kept.get(key(on, content));
        if (reactionId !== undefined) found.push({ content, reactionId });
      }
      return Promise.resolve(found);
    },
    removed(on, content) {
      kept.delete(key(on, content));
      return Promise.resolve();
    },
  };
}
