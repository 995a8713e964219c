/**
 * GitHub as a platform: its notifier (comments, reactions, check runs), a person's repository
 * access for the runs to ask, and the webhook route, whose refusals are queued on the outbox
 * and whose installation events teach the notifier.
 */
import { GITHUB_BODY_LIMIT_BYTES } from '../core/ingress/body-limit.js';
import { commandWord } from '../platform/command-word.js';
import type { PlatformDeps, PlatformModule } from '../platform/contract.js';
import { webhookRoute } from '../platform/webhook-endpoint.js';
import { createGitHubRepoAccess } from './api/repo-access.js';
import { createGitHubIngress } from './ingress/github-ingress.js';
import { createOutboxRefusalSink } from './ingress/refusal.js';
import { createGitHubNotifier } from './notify/notifier.js';

export function createGitHub(deps: PlatformDeps): PlatformModule | undefined {
  const { config, clock, logger } = deps;
  const o = deps.overrides ?? {};
  const word = commandWord(config);
  const github = config.github;
  if (!github) return undefined;

  const notifier = createGitHubNotifier({
    auth: github.auth,
    apiUrl: github.apiUrl,
    logger,
    clock,
    render: { commandWord: word, botHandle: github.botHandle },
    reactionIds: deps.store.reactionIds,
    ...(o.githubMinWriteIntervalMs === undefined
      ? {}
      : { minWriteIntervalMs: o.githubMinWriteIntervalMs }),
  });
  const access = createGitHubRepoAccess({
    clients: notifier.clients,
    minimum: github.minPermission,
    clock,
    logger,
  });

  return {
    name: 'github',
    notifier,
    access,
    routes({ sink, wakeOutbox }) {
      const webhooks = createGitHubIngress({
        secret: github.webhookSecret,
        previousSecret: github.previousWebhookSecret,
        botHandle: github.botHandle,
        triggerLabel: github.triggerLabel,
        allowedAssociations: github.allowedAssociations,
        commandWord: word,
        sink,
        refusals: createOutboxRefusalSink({ store: deps.store, clock, onQueued: wakeOutbox }),
        logger,
        clock,
        onInstallation: (owner, repo, id) => notifier.learnInstallation(owner, repo, id),
      });
      return [webhookRoute('github', GITHUB_BODY_LIMIT_BYTES, webhooks)];
    },
    async start() {},
    async stop() {},
    async close() {},
  };
}
