/**
 * The GitHub notifier as the tests drive it against the fake GitHub: writes not spaced,
 * retries 5 ms apart, rendered with the default command word and handle; `deps` sets the rest.
 */
import {
  createGitHubNotifier,
  type GitHubNotifier,
  type GitHubNotifierDeps,
} from '../../src/github/notify/notifier.js';
import { createRecordingLogger } from '../helpers/test-logger.js';

export function testGitHubNotifier(
  apiUrl: string,
  auth: GitHubNotifierDeps['auth'],
  deps: Partial<GitHubNotifierDeps> = {},
): GitHubNotifier {
  return createGitHubNotifier({
    auth,
    apiUrl,
    logger: createRecordingLogger(),
    minWriteIntervalMs: 0,
    retryBaseMs: 5,
    render: { commandWord: '/agent', botHandle: 'agent-relay' },
    ...deps,
  });
}
