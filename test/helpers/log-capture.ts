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
