/**
 * GitHub wired from the config: its notifier (comments, reactions, check runs), a person's
 * repository access for the runs to ask, and its ingress: the webhook route, whose refusals
 * are queued on the outbox and whose installation events teach the notifier.
 */
import type { Notifier, RepoAccess, TriggerSink } from '../../core/ports/index.js';
import type { Platform } from '../../core/trigger.js';
import { GITHUB_BODY_LIMIT_BYTES } from '../../core/ingress/body-limit.js';
import {
  createGitHubIngress,
  createGitHubNotifier,
  createGitHubRepoAccess,
  createOutboxRefusalSink,
} from '../../github/index.js';
import type { GitHubIngress } from '../../github/index.js';
import type { Route } from '../http-server.js';
import { commandWord } from './platform-deps.js';
import type { PlatformDeps } from './platform-deps.js';

export interface GitHubPlatform {
  notifier?: Notifier;
  /** A person's repository access (GITHUB_MIN_PERMISSION), for the runs to ask. */
  repoAccess?: RepoAccess;
  ingress(sink: TriggerSink, wakeOutbox?: (platform: Platform) => void): GitHubIngress | undefined;
}

export function createGitHubPlatform(deps: PlatformDeps): GitHubPlatform {
  const { config, clock, logger } = deps;
  const o = deps.overrides ?? {};
  const word = commandWord(config);
  const github = config.github;

  const githubNotifier = github
    ? createGitHubNotifier({
        auth: github.auth,
        apiUrl: github.apiUrl,
        logger,
        clock,
        render: { commandWord: word, botHandle: github.botHandle },
        ...(deps.store.reactionIds ? { reactionIds: deps.store.reactionIds } : {}),
        ...(o.githubMinWriteIntervalMs === undefined
          ? {}
          : { minWriteIntervalMs: o.githubMinWriteIntervalMs }),
      })
    : undefined;

  const repoAccess =
    github && githubNotifier
      ? createGitHubRepoAccess({
          clients: githubNotifier.clients,
          minimum: github.minPermission,
          clock,
          logger,
        })
      : undefined;

  return {
    ...(githubNotifier ? { notifier: githubNotifier } : {}),
    ...(repoAccess ? { repoAccess } : {}),
    ingress(sink, wakeOutbox) {
      return github && githubNotifier
        ? createGitHubIngress({
            secret: github.webhookSecret,
            previousSecret: github.previousWebhookSecret,
            botHandle: github.botHandle,
            triggerLabel: github.triggerLabel,
            allowedAssociations: github.allowedAssociations,
            commandWord: word,
            sink,
            refusals: createOutboxRefusalSink({
              store: deps.store,
              clock,
              onQueued: () => wakeOutbox?.('github'),
            }),
            logger,
            clock,
            metrics: deps.metrics,
            onInstallation: (owner, repo, id) => githubNotifier.learnInstallation(owner, repo, id),
          })
        : undefined;
    },
  };
}

/** `POST /github/webhooks`, when GitHub is on. */
export function githubRoutes(github: GitHubIngress | undefined): Route[] {
  if (!github) return [];
  return [
    {
      path: '/github/webhooks',
      methods: ['POST'],
      bodyLimitBytes: GITHUB_BODY_LIMIT_BYTES,
      handler: (q, s, body) => github.handle(q, s, body),
    },
  ];
}
