/**
 * What may be printed of a config: secrets become `***`, a database URL keeps everything but
 * its password. The logger redacts the same field names (logger.ts), so a config logged by
 * mistake still shows no secret.
 */
import type { Config } from './types.js';

/** Field names (in Config, and in anything logged) whose values are secrets. */
export const SECRET_FIELDS = [
  'apiKey',
  'signingSecret',
  'botToken',
  'appToken',
  'clientSecret',
  'stateSecret',
  'encryptionKey',
  'webhookSecret',
  'previousWebhookSecret',
  'privateKey',
  'token',
  'secret',
  'password',
  'metricsToken',
] as const;

const SECRET_SET: ReadonlySet<string> = new Set(SECRET_FIELDS);
export const REDACTED = '***';

/** A deep copy of `config` that is safe to print. */
export function redactedConfig(config: Config): unknown {
  const copy = redactDeep(config) as Record<string, unknown>;
  copy.databaseUrl = maskUrlPassword(config.databaseUrl);
  return copy;
}

function redactDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactDeep);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      SECRET_SET.has(k) && v !== undefined ? REDACTED : redactDeep(v),
    ]),
  );
}

/** `postgres://user:pw@host/db` -> `postgres://user:***@host/db`; other strings unchanged. */
export function maskUrlPassword(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/:@]*):[^@/]*@/i, `$1:${REDACTED}@`);
}
