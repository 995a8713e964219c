/**
 * The only reader of `process.env` (docs/architecture.md). One zod schema over the environment turns
 * strings into typed values; `checkCombinations` adds the rules between variables; every
 * problem comes back at once, each naming its variable and never echoing a secret.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { RelayError } from '../core/relay-error.js';
import { checkCombinations } from './rules.js';
import { EnvSchema } from './schema.js';
import { CONFIG_VARIABLES } from './variables.js';
import type { ConfigIssue } from './rules.js';
import type { Config } from './types.js';

export { CONFIG_VARIABLES, SECRET_VARIABLES } from './variables.js';
export { redactedConfig } from './redact.js';
export type { ConfigIssue } from './rules.js';
export { EnvSchema } from './schema.js';
export type { Env } from './schema.js';

export type {
  Config,
  ConsoleConfig,
  GitHubAuth,
  GitHubConfig,
  JiraConfig,
  LinearConfig,
  LogLevel,
  SlackConfig,
  TeamsConfig,
} from './types.js';

export class ConfigError extends RelayError<'invalid_config'> {
  override readonly name = 'ConfigError';
  constructor(readonly issues: ConfigIssue[]) {
    super(
      'invalid_config',
      `Invalid configuration (${issues.length} problem${issues.length === 1 ? '' : 's'}):\n` +
        issues.map((i) => `  ${i.variable}: ${i.message}`).join('\n'),
    );
  }
}

export interface LoadConfigOptions {
  /** Whether stdout is a terminal (LOG_PRETTY's default). */
  isTTY?: boolean;
  /** Reads GITHUB_PRIVATE_KEY_PATH; default fs.readFileSync. */
  readFile?: (path: string) => string;
}

/** Parse the environment. Pure apart from reading GITHUB_PRIVATE_KEY_PATH. */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  options: LoadConfigOptions = {},
): Config {
  const known = Object.fromEntries(
    CONFIG_VARIABLES.map((v) => [v.name, env[v.name]?.trim() || undefined]),
  );
  const parsed = EnvSchema.safeParse(known);
  const issues: ConfigIssue[] = parsed.success
    ? []
    : parsed.error.issues.map((i) => ({
        variable: String(i.path[0] ?? 'environment'),
        message: i.message,
      }));
  const readFile = options.readFile ?? ((p: string) => readFileSync(p, 'utf8'));
  const result = checkCombinations(known, parsed.success ? parsed.data : undefined, readFile);
  issues.push(...result.issues);
  if (!parsed.success || issues.length > 0) {
    const seen = new Set<string>();
    throw new ConfigError(
      issues.filter(
        (i) => !seen.has(`${i.variable}|${i.message}`) && seen.add(`${i.variable}|${i.message}`),
      ),
    );
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    agent:
      e.AGENT_API_URL !== undefined && e.AGENT_API_KEY !== undefined
        ? { kind: 'remote', url: e.AGENT_API_URL.replace(/\/+$/, ''), apiKey: e.AGENT_API_KEY }
        : { kind: 'emulator', fast: e.EMULATOR_FAST },
    pollIntervalMs: e.POLL_INTERVAL_MS,
    trackerMode: e.TRACKER_MODE ?? 'batch',
    maxPromptChars: e.MAX_PROMPT_CHARS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    leaseMs: e.LEASE_MS,
    ingressBurstPerSecond: e.INGRESS_BURST_PER_SECOND,
    progressReadsPerMinute: e.PROGRESS_READS_PER_MINUTE,
    retentionDays: e.RETENTION_DAYS,
    ...(e.METRICS_TOKEN ? { metricsToken: e.METRICS_TOKEN } : {}),
    runRetentionDays: e.RUN_RETENTION_DAYS,
    slack: result.slack,
    github: result.github,
    ...(result.linear ? { linear: result.linear } : {}),
    ...(result.jira ? { jira: result.jira } : {}),
    ...(result.teams ? { teams: result.teams } : {}),
    ...(result.console ? { console: result.console } : {}),
    log: { level: e.LOG_LEVEL, pretty: e.LOG_PRETTY ?? options.isTTY === true },
    notes: result.notes,
  };
}

/**
 * The process environment, with an optional `.env` file merged under it (real variables
 * win). Loaded only when the file exists.
 */
export function readEnvironment(envFile = '.env'): Record<string, string | undefined> {
  const path = resolve(envFile);
  if (existsSync(path)) process.loadEnvFile(path);
  return process.env;
}
