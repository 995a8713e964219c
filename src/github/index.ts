/** The GitHub side: webhook ingress, notifier, Markdown renderer (see the README, "GitHub"). */
export { createGitHubIngress, type GitHubIngress, type GitHubIngressDeps } from './ingress.js';
export {
  createGitHubNotifier,
  type GitHubNotifier,
  type GitHubNotifierDeps,
  type PullRequestRefs,
} from './notifier.js';
export type { GitHubAuth } from './github-client.js';
export {
  renderGitHubMessage,
  renderGitHubMarkdown,
  type RenderOptions,
} from './render-markdown.js';
export {
  createOutboxRefusalSink,
  refusalMessage,
  type Refusal,
  type RefusalSink,
} from './refusal.js';
export { GITHUB_REACTION } from './reactions.js';
export { decodeMessageId, encodeMessageId, type GitHubMessageId } from './message-ref.js';
