/** A Logger that keeps its lines (for assertions) and prints nothing. */
import type { Logger } from '../../src/core/ports/index.js';

export interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  obj: Record<string, unknown>;
  msg?: string;
}

export interface RecordingLogger extends Logger {
  lines: LogLine[];
}

export function createRecordingLogger(
  lines: LogLine[] = [],
  bindings: Record<string, unknown> = {},
): RecordingLogger {
  const at =
    (level: LogLine['level']) =>
    (obj: object, msg?: string): void => {
      lines.push({
        level,
        obj: { ...bindings, ...(obj as Record<string, unknown>) },
        ...(msg === undefined ? {} : { msg }),
      });
    };
  return {
    lines,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (more) => createRecordingLogger(lines, { ...bindings, ...more }),
  };
}
