/**
 * The GitHub ingress behind a real node:http server on 127.0.0.1 (port 0), with a recording
 * TriggerSink (dedupes by delivery id like the inbox) and an outbox-backed refusal sink whose
 * outbox records what it was given.
 */
import { serveOnLoopback } from '../../helpers/loopback-server.js';
import type { OutboxPayload, TriggerSink } from '../../../src/core/ports/index.js';
import type { Trigger } from '../../../src/core/trigger.js';
import {
  createGitHubIngress,
  type GitHubIngressDeps,
} from '../../../src/github/ingress/github-ingress.js';
import { createOutboxRefusalSink } from '../../../src/github/ingress/refusal.js';
import { TEST_GITHUB_SECRET } from '../../helpers/github.js';
import { createRecordingLogger, type RecordingLogger } from '../../helpers/test-logger.js';

export interface RecordingSink extends TriggerSink {
  triggers: Trigger[];
  /** Make accept() throw (inbox unavailable). */
  failing: boolean;
}

export function createRecordingSink(): RecordingSink {
  const seen = new Set<string>();
  const sink: RecordingSink = {
    triggers: [],
    failing: false,
    async accept(trigger) {
      if (sink.failing) throw new Error('database is locked');
      if (seen.has(trigger.deliveryId)) return 'duplicate';
      seen.add(trigger.deliveryId);
      sink.triggers.push(structuredClone(trigger));
      return 'accepted';
    },
    threadHasRun: async () => false,
  };
  return sink;
}

export interface IngressHarness {
  url: string;
  sink: RecordingSink;
  outbox: OutboxPayload[];
  logger: RecordingLogger;
  installations: [string, string, number][];
  close(): Promise<void>;
}

export async function startIngress(
  overrides: Partial<GitHubIngressDeps> = {},
): Promise<IngressHarness> {
  const sink = createRecordingSink();
  const outbox: OutboxPayload[] = [];
  const told = new Set<string>();
  const logger = createRecordingLogger();
  const installations: [string, string, number][] = [];
  let now = Date.parse('2024-05-15T15:20:22Z');
  const clock = { now: () => (now += 1) };
  const refusals = createOutboxRefusalSink({
    clock,
    store: {
      // The ingress tests look at what is queued; who was told is the store's (its contract).
      transaction: (fn) =>
        fn({
          outbox: { enqueue: async (payload) => outbox.push(payload) },
          refusals: {
            note: async (threadKey, person) =>
              !told.has(`${threadKey} ${person}`) &&
              told.add(`${threadKey} ${person}`) !== undefined,
          },
        }),
    },
  });
  const ingress = createGitHubIngress({
    secret: TEST_GITHUB_SECRET,
    botHandle: 'agent-relay',
    botLogin: 'agent-relay[bot]',
    triggerLabel: 'agent',
    allowedAssociations: ['OWNER', 'MEMBER', 'COLLABORATOR'],
    commandWord: '/agent',
    sink,
    refusals,
    logger,
    clock,
    onInstallation: (owner, repo, id) => installations.push([owner, repo, id]),
    ...overrides,
  });
  const server = await serveOnLoopback((req, res) => {
    if (req.url === '/github/webhooks') void ingress.handle(req, res);
    else res.writeHead(404).end();
  });
  return {
    url: `${server.url}/github/webhooks`,
    sink,
    outbox,
    logger,
    installations,
    close: () => server.close(),
  };
}
