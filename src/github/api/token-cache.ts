/**
 * The installation-token cache handed to `@octokit/auth-app` (its `cache` option). A token
 * is kept until shortly before its `expires_at` (GitHub: one hour), measured on the injected
 * clock, and shared by every Octokit of the process, so a token is minted once per
 * installation and hour rather than once per client.
 *
 * auth-app stores `token|createdAt|expiresAt|…`; when the third field is no date (another
 * auth-app version), the entry lives `fallbackTtlMs` instead.
 */
import type { Clock } from '../../core/ports/index.js';

export interface TokenCache {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
  /** Entries currently held (for tests and metrics). */
  size(): number;
}

export interface TokenCacheOptions {
  clock: Clock;
  /** Drop a token this long before it expires. Default 5 minutes. */
  marginMs?: number;
  /** Lifetime of an entry whose expiry cannot be read. Default 50 minutes. */
  fallbackTtlMs?: number;
  /** Most entries kept (oldest dropped first). Default 10,000. */
  maxEntries?: number;
}

export function createTokenCache(options: TokenCacheOptions): TokenCache {
  const marginMs = options.marginMs ?? 5 * 60_000;
  const fallbackTtlMs = options.fallbackTtlMs ?? 50 * 60_000;
  const maxEntries = options.maxEntries ?? 10_000;
  const entries = new Map<string, { value: string; until: number }>();

  const expiryOf = (value: string, now: number): number => {
    const expiresAt = Date.parse(value.split('|')[2] ?? '');
    return Number.isFinite(expiresAt) ? expiresAt - marginMs : now + fallbackTtlMs;
  };

  return {
    get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      if (entry.until <= options.clock.now()) {
        entries.delete(key);
        return undefined;
      }
      return entry.value;
    },
    set(key, value) {
      const now = options.clock.now();
      entries.delete(key);
      entries.set(key, { value, until: expiryOf(value, now) });
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next();
        if (oldest.done === true) break;
        entries.delete(oldest.value);
      }
    },
    size: () => entries.size,
  };
}
