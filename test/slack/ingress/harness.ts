/**
 * The Slack ingress on a real loopback HTTP server (as the runtime mounts it), a fake Slack
 * Web API, and a recording TriggerSink (an in-memory fake of the port, keyed by delivery id
 * like the inbox).
 */
import { serveOnLoopback } from '../../helpers/loopback-server.js';
import type { Clock, TriggerSink } from '../../../src/core/ports/index.js';
import type { Trigger } from '../../../src/core/trigger.js';
import type { SlackIngress, SlackIngressDeps } from '../../../src/slack/ingress/slack-ingress.js';
import { createSlackIngress } from '../../../src/slack/ingress/slack-ingress.js';
import { TEST_SIGNING_SECRET } from '../../helpers/slack.js';
import type { FakeSlackApi } from '../../../src/fakes/slack-web-api.js';
import { startFakeSlackApi } from '../../../src/fakes/slack-web-api.js';
import type { RecordingLogger } from '../../helpers/test-logger.js';
import { createRecordingLogger } from '../../helpers/test-logger.js';
import type { Logger } from '../../../src/core/ports/index.js';
import { fixedBotToken } from '../../../src/slack/api/bot-tokens.js';
import { createSlackPeopleAndPlaces } from '../../../src/slack/api/people-and-places.js';
import { createPeople } from '../../../src/slack/ingress/people.js';
import type { People, PeoplePolicy } from '../../../src/slack/ingress/people.js';
import { systemClock } from '../../../src/core/ports/index.js';

/** Who a person is, as the Slack platform wires it: the fake's users.info, a strict policy. */
export function peopleOf(
  apiUrl: string,
  logger: Logger,
  policy: Partial<PeoplePolicy> = {},
): People {
  const lookups = createSlackPeopleAndPlaces(fixedBotToken('xoxb-test-token'), { apiUrl, logger });
  return createPeople({
    policy: { adminUsers: [], allowGuests: false, allowExternalUsers: false, ...policy },
    usersInfo: (team, user) => lookups.usersInfo(team, user),
    clock: systemClock,
    logger,
  });
}

export class RecordingSink implements TriggerSink {
  readonly triggers: Trigger[] = [];
  readonly offered: Trigger[] = [];
  readonly threadsWithRuns = new Set<string>();
  private readonly seen = new Set<string>();
  failing = false;

  async accept(trigger: Trigger): Promise<'accepted' | 'duplicate'> {
    this.offered.push(trigger);
    if (this.failing) throw new Error('inbox unavailable');
    if (this.seen.has(trigger.deliveryId)) return 'duplicate';
    this.seen.add(trigger.deliveryId);
    this.triggers.push(trigger);
    return 'accepted';
  }

  async threadHasRun(threadKey: string): Promise<boolean> {
    return this.threadsWithRuns.has(threadKey);
  }
}

export interface IngressHarness {
  /** `http://127.0.0.1:PORT/slack/events` */
  url: string;
  api: FakeSlackApi;
  sink: RecordingSink;
  ingress: SlackIngress;
  logger: RecordingLogger;
  close(): Promise<void>;
}

export async function startIngress({
  people,
  ...overrides
}: Partial<SlackIngressDeps> & { clock?: Clock } = {}): Promise<IngressHarness> {
  const api = await startFakeSlackApi();
  const sink = new RecordingSink();
  const logger = createRecordingLogger();
  const ingress = createSlackIngress({
    people: people ?? peopleOf(api.url, logger),
    signingSecret: TEST_SIGNING_SECRET,
    botToken: 'xoxb-test-token',
    apiUrl: api.url,
    commandName: '/agent',
    allowedChannels: [],
    allowedUsers: [],
    sink,
    logger,
    ...overrides,
  });
  await ingress.start();
  const server = await serveOnLoopback((req, res) => {
    if (req.method === 'POST' && req.url?.split('?')[0] === '/slack/events') {
      void ingress.handle(req, res);
      return;
    }
    res.writeHead(404).end();
  });
  return {
    url: `${server.url}/slack/events`,
    api,
    sink,
    ingress,
    logger,
    async close() {
      await ingress.stop();
      await server.close();
      await api.close();
    },
  };
}
