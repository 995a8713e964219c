/**
 * The service exactly as `agent-relay start` runs it (same config, same startService), with
 * one engine option changed: no per-run back-off (every run, BLOCKED ones too, is checked
 * every POLL_INTERVAL_MS). The tracking benchmark uses it as "per-run polling at the batch
 * tracker's delay", the baseline the tracking target in docs/performance.md names.
 */
import { loadConfig, readEnvironment } from '../../src/config/load.js';
import { createLogger } from '../../src/service/logger.js';
import { startService } from '../../src/main.js';

const config = loadConfig(readEnvironment());
const logger = createLogger(config.log);
const service = await startService(config, {
  logger,
  engineOptions: {
    maxCheckIntervalMs: config.pollIntervalMs,
    blockedCheckIntervalMs: config.pollIntervalMs,
  },
});
process.once('SIGTERM', () => {
  void service.stop().finally(() => process.exit(0));
});
