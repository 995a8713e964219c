/**
 * What may be printed of a config: the fields the secret variables land in (variables.ts)
 * become `***`, a database URL keeps everything but its password. The logger redacts the same
 * field names (logger.ts), so a config logged by mistake still shows no secret.
 */
import type { Config } from './types.js';
import { VARIABLES } from './variables.js';

/** Every field name of `Config`, at any depth (lists excepted). */
type FieldOf<T> = T extends readonly unknown[]
  ? never
  : T extends object
    ? { [K in keyof T & string]: K | FieldOf<T[K]> }[keyof T & string]
    : never;

/** A secret entry's `fields`, checked here to be names of `Config`'s fields. */
function fieldsOf(v: (typeof VARIABLES)[number]): readonly FieldOf<Config>[] {
  return 'fields' in v ? v.fields : [];
}

/** The field names (in Config, and in anything logged) whose values are secrets. */
export const SECRET_FIELDS: readonly string[] = [...new Set(VARIABLES.flatMap(fieldsOf))];

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

/**
 * Secrets as they look inside free text (a library's debug line, a URL, a JSON dump): Slack,
 * GitHub and Linear token shapes (`lin_api_…` personal keys, `lin_oauth_…` OAuth tokens, and
 * Linear's other `lin_<kind>_…` secrets such as `lin_wh_…` webhook secrets), and the values of OAuth parameters (`client_secret`, `code`,
 * `state`, tokens) in a query string, a form or JSON. Each becomes `***`.
 */
const TEXT_SECRETS: readonly [RegExp, string][] = [
  [/\b(xox[a-z]|xapp)-[A-Za-z0-9-]+/g, `$1-${REDACTED}`],
  [/\b(gh[pousr]_|github_pat_)[A-Za-z0-9_]+/g, `$1${REDACTED}`],
  [/\b(lin_[a-z]+_)[A-Za-z0-9_-]+/g, `$1${REDACTED}`],
  [
    /\b((?:client_secret|code|state|token|access_token|refresh_token|id_token)=)[^&\s"',;]+/gi,
    `$1${REDACTED}`,
  ],
  [
    /("(?:client_secret|code|state|token|access_token|refresh_token|id_token|bot_token|signing_secret)"\s*:\s*")(?:[^"\\]|\\.)*"/gi,
    `$1${REDACTED}"`,
  ],
  [/(\bBearer\s+)[A-Za-z0-9._~+/=-]+/g, `$1${REDACTED}`],
];

export function redactSecretsInText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of TEXT_SECRETS) out = out.replace(pattern, replacement);
  return out;
}
