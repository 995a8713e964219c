/**
 * The service exactly as `agent-relay start` runs it (same config, same startService), with
 * the Teams platform's test-only key source and login endpoint pointed at the bench's fake Bot
 * Connector (`BENCH_TEAMS_URL`): the relay never takes these from its own environment.
 */
import { loadConfig, readEnvironment } from '../../src/config/load.js';
import { createLogger } from '../../src/service/logger.js';
import { startService } from '../../src/main.js';

const fake = process.env.BENCH_TEAMS_URL;
if (fake === undefined) throw new Error('BENCH_TEAMS_URL is required');
const config = loadConfig(readEnvironment());
const logger = createLogger(config.log);
const service = await startService(config, {
  logger,
  platforms: {
    teamsOpenIdMetadataUrl: `${fake}/v1/.well-known/openidconfiguration`,
    teamsLoginEndpoint: fake,
  },
});
process.once('SIGTERM', () => {
  void service.stop().finally(() => process.exit(0));
});
