/**
 * `DATABASE_URL` parsing: `sqlite:PATH`, `sqlite::memory:` (tests), a plain file path, or
 * `postgres://…` / `postgresql://…`. Exported for the runtime's config validation.
 */
import { StoreConfigError } from './errors.js';

export type DatabaseTarget = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

export const DEFAULT_DATABASE_PATH = './data/agent-relay.db';

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

export function parseDatabaseUrl(url: string): DatabaseTarget {
  const value = url.trim();
  if (value === '') {
    throw new StoreConfigError(
      'invalid_database_url',
      `DATABASE_URL is empty; use sqlite:PATH, a file path (default ${DEFAULT_DATABASE_PATH}) or postgres://…`,
    );
  }
  if (/^postgres(ql)?:\/\//i.test(value)) return { kind: 'postgres', url: value };
  if (/^sqlite:/i.test(value)) {
    // `sqlite:PATH`, and the URL-ish `sqlite://PATH` / `sqlite:///abs/path` some tools write.
    let path = value.slice('sqlite:'.length);
    if (path.startsWith('//')) path = path.slice(2);
    if (path === '') {
      throw new StoreConfigError(
        'invalid_database_url',
        'DATABASE_URL "sqlite:" names no file; use sqlite:PATH, e.g. sqlite:./data/agent-relay.db',
      );
    }
    return { kind: 'sqlite', path };
  }
  const scheme = SCHEME.exec(value);
  if (scheme) {
    throw new StoreConfigError(
      'invalid_database_url',
      `DATABASE_URL scheme "${scheme[1]}" is not supported; use sqlite:PATH, a file path or postgres://…`,
    );
  }
  return { kind: 'sqlite', path: value };
}
