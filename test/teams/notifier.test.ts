/**
 * The Teams notifier against the fake Bot Connector: activities sent to the thread's
 * conversation with the bot's token (asked of Entra once), the card edited in place (an edit
 * to the same card sends nothing), and the Bot Connector's refusals as the outbox's
 * DeliveryError codes.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeliveryError, type Notifier } from '../../src/core/ports/index.js';
import { encodeThreadKey } from '../../src/core/thread-key.js';
import {
  FAKE_TEAMS_APP_ID,
  FAKE_TEAMS_APP_PASSWORD,
  FAKE_TEAMS_TENANT,
  GENERAL_CHANNEL,
  startFakeTeams,
  type FakeTeams,
} from '../../src/fakes/teams-connector.js';
import { createConnectorClient, createTeamsNotifier } from '../../src/teams/index.js';
import { sampleRun } from '../github/models.js';
import { createRecordingLogger } from '../helpers/test-logger.js';

let teams: FakeTeams;
let notifier: Notifier;
beforeEach(async () => {
  teams = await startFakeTeams();
  notifier = createTeamsNotifier({
    client: createConnectorClient({
      appId: FAKE_TEAMS_APP_ID,
      appPassword: FAKE_TEAMS_APP_PASSWORD,
      tenantId: FAKE_TEAMS_TENANT,
      loginEndpoint: teams.url,
      botScope: 'https://api.botframework.com/.default',
    }),
    serviceUrlOf: () => teams.serviceUrl,
    render: { botHandle: 'agent-relay' },
    logger: createRecordingLogger(),
  });
});
afterEach(async () => {
  await teams.close();
});

const threadKey = encodeThreadKey({
  platform: 'teams',
  tenant: FAKE_TEAMS_TENANT,
  conversation: GENERAL_CHANNEL,
  root: '1712000000001',
});
const conversation = `${GENERAL_CHANNEL};messageid=1712000000001`;

describe('the Teams notifier', () => {
  it('posts the card in the thread and edits it in place; the same card twice sends nothing', async () => {
    const { ref } = await notifier.post(
      { threadKey },
      { type: 'run_status', run: sampleRun('QUEUED') },
    );
    await notifier.update(ref, { type: 'run_status', run: sampleRun('INPROGRESS') });
    await notifier.update(ref, { type: 'run_status', run: sampleRun('INPROGRESS') });
    const [card] = teams.inConversation(conversation);
    expect(card?.id).toBe(ref.id);
    expect(card?.edits).toHaveLength(1);
    expect(teams.requests.filter((r) => r.method === 'PUT')).toHaveLength(1);
    expect(teams.requests.filter((r) => r.path.endsWith('/oauth2/v2.0/token'))).toHaveLength(1);
  });

  it("maps the Bot Connector's refusals to delivery errors", async () => {
    const run = { type: 'run_status' as const, run: sampleRun('QUEUED') };
    teams.failNext({ status: 429, retryAfter: '7' });
    await expect(notifier.post({ threadKey }, run)).rejects.toMatchObject({
      code: 'rate_limited',
      retryable: true,
      retryAfterMs: 7_000,
    });
    teams.failNext({ status: 503 });
    await expect(notifier.post({ threadKey }, run)).rejects.toMatchObject({
      code: 'unavailable',
      retryable: true,
    });
    teams.failNext({ status: 403 });
    await expect(notifier.post({ threadKey }, run)).rejects.toMatchObject({
      code: 'forbidden',
      retryable: false,
    });
    const gone = notifier.update({ threadKey, id: '999' }, run);
    await expect(gone).rejects.toBeInstanceOf(DeliveryError);
    await expect(gone).rejects.toMatchObject({ code: 'not_found', retryable: false });
  });
});
