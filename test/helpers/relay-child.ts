/**
 * The relay as tests run it in a child process: exactly what `agent-relay start`
 * does (src/cli.ts: loadConfig(env) -> createLogger -> startService), with two knobs the CLI
 * does not expose yet: a short claim lease (argv[2], ms), so that work a killed process had
 * claimed is taken up again within the test's time bound instead of after the default 120 s,
 * and no spacing between GitHub writes; argv[3] the workers' idle poll (ms, default 25);
 * argv[4] a skew of this process's clock (ms, default 0); argv[5] how long a live Linear
 * session may stay quiet before a keep-alive thought (ms, default the notifier's).
 * Started by startRelayProcess (relay-process.ts); run by hand:
 * node --import tsx test/helpers/relay-child.ts 1500 [25] [skew] [keep-alive]
 */
import { loadConfig } from '../../src/config/load.js';
import { createLogger } from '../../src/service/logger.js';
import { startService } from '../../src/main.js';

const leaseMs = Number(process.argv[2] ?? 1_500);
const workerPollMs = Number(process.argv[3] ?? 25);
// argv[4]: this process's clock runs this many ms ahead (negative: behind) of the real one.
const clockSkewMs = Number(process.argv[4] ?? 0);
const linearKeepAliveMs = process.argv[5] === undefined ? undefined : Number(process.argv[5]);
const config = loadConfig(process.env);
const logger = createLogger(config.log);
const service = await startService(config, {
  logger,
  engineOptions: { leaseMs, workerPollMs },
  ...(clockSkewMs === 0 ? {} : { clock: { now: () => Date.now() + clockSkewMs } }),
  platforms: {
    githubMinWriteIntervalMs: 0,
    ...(linearKeepAliveMs === undefined ? {} : { linearKeepAliveMs }),
  },
});
process.once('SIGTERM', () => {
  void service.stop().then(() => process.exit(0));
});
