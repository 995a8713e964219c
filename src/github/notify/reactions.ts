/**
 * The core's reactions mapped to GitHub's fixed set (`+1`, `-1`, `laugh`, `confused`,
 * `heart`, `hooray`, `rocket`, `eyes`).
 *
 * - seen 👀 `eyes`: the trigger was received.
 * - accepted 👍 `+1`: a follow-up went through; cancel_requested 👍 too (the relay answers a
 *   GitHub cancel in words, so this is only a fallback).
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
  cancel_requested: '+1',
  succeeded: 'rocket',
  failed: 'confused',
  blocked: 'eyes',
  cancelled: '-1',
};
