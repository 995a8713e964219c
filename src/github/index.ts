/** The GitHub side: webhook ingress, notifier, Markdown renderer (docs/setup-github.md). */
export {
  createGitHubIngress,
  type GitHubIngress,
  type GitHubIngressDeps,
} from './ingress/github-ingress.js';
export {
  createGitHubNotifier,
  type GitHubNotifier,
  type GitHubNotifierDeps,
  type PullRequestRefs,
} from './notify/notifier.js';
export type { GitHubAuth } from './api/github-client.js';
export {
  renderGitHubMessage,
  renderGitHubMarkdown,
  type RenderOptions,
} from './render/render-markdown.js';
export {
  createOutboxRefusalSink,
  refusalMessage,
  type Refusal,
  type RefusalSink,
} from './ingress/refusal.js';
export { GITHUB_REACTION } from './notify/reactions.js';
export { decodeMessageId, encodeMessageId, type GitHubMessageId } from './api/message-ref.js';
export { createGitHubRepoAccess, type GitHubRepoAccessDeps } from './api/repo-access.js';
export { githubPlatform } from './platform.js';
