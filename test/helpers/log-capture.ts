/**
 * The product's own pino logger (src/logger.ts, with its redaction) at debug level, writing
 * to memory instead of stdout, so a test can read every line it produced and scan them.
 */
import { createLogger } from '../../src/service/logger.js';
import type { AppLogger } from '../../src/service/logger.js';

export interface LogCapture {
  logger: AppLogger;
  /** Every line written so far (JSON text, one per line). */
  text(): string;
  lines(): Record<string, unknown>[];
  count(): number;
}

export function captureLogs(base: Record<string, unknown> = {}): LogCapture {
  const chunks: string[] = [];
  const logger = createLogger({
    level: 'debug',
    pretty: false,
    base,
    destination: { write: (chunk: string) => void chunks.push(chunk) },
  });
  const text = () => chunks.join('');
  return {
    logger,
    text,
    count: () => text().split('\n').filter(Boolean).length,
    lines: () =>
      text()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

/**
 * The top-level keys a JSON log line carries more than once (pino writes a child's binding
 * again when a parent bound the same key; a reader keeps only one of them, at random).
 */
export function repeatedKeys(line: string): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  let depth = 0;
  let expectKey = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') {
      let j = i + 1;
      while (j < line.length && line[j] !== '"') j += line[j] === '\\' ? 2 : 1;
      if (depth === 1 && expectKey) {
        const key = line.slice(i + 1, j);
        if (seen.has(key)) repeated.add(key);
        seen.add(key);
        expectKey = false;
      }
      i = j;
    } else if (c === '{' || c === '[') {
      depth += 1;
      expectKey = c === '{' && depth === 1;
    } else if (c === '}' || c === ']') depth -= 1;
    else if (c === ',' && depth === 1) expectKey = true;
  }
  return [...repeated];
}

/** Each line of `text` that carries a key twice, with the keys: empty when none does. */
export function linesWithRepeatedKeys(text: string): string[] {
  return text
    .split('\n')
    .filter(Boolean)
    .flatMap((l) => {
      const keys = repeatedKeys(l);
      return keys.length > 0 ? [`${keys.join(',')}: ${l.slice(0, 200)}`] : [];
    });
}
