/**
 * The core's reactions mapped to GitHub's fixed set (`+1`, `-1`, `laugh`, `confused`,
 * `heart`, `hooray`, `rocket`, `eyes`).
 *
 * - seen 👀 `eyes`: the trigger was received.
 * - accepted 👍 `+1`: a follow-up or cancel went through.
 * - succeeded 🚀 `rocket`, failed 😕 `confused`.
 * - blocked 👀 `eyes`: GitHub has no "waiting" reaction; the reply that mentions the
 *   requester carries the news, and `eyes` (already there) stays truthful.
 * - cancelled 👎 `-1`: the nearest "stopped" in GitHub's set.
 */
import type { ReactionName } from '../../core/message/message-model.js';

export type GitHubReaction =
  '+1' | '-1' | 'laugh' | 'confused' | 'heart' | 'hooray' | 'rocket' | 'eyes';

export const GITHUB_REACTION: Record<ReactionName, GitHubReaction> = {
  seen: 'eyes',
  accepted: '+1',
  succeeded: 'rocket',
  failed: 'confused',
  blocked: 'eyes',
  cancelled: '-1',
};
