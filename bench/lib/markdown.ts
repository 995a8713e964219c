/** Markdown tables for the console and docs/performance.md. */

/** A table cell; null is a figure JSON could not keep (Infinity, NaN) in saved results. */
export type Cell = string | number | undefined | null;

export function formatNumber(value: number, digits = 1): string {
  if (!Number.isFinite(value)) return '–';
  if (Math.abs(value) >= 1000) return Math.round(value).toLocaleString('en-US');
  const f = 10 ** digits;
  return String(Math.round(value * f) / f);
}

function cellText(cell: Cell): string {
  if (cell === undefined || cell === null) return '–';
  if (typeof cell === 'number') return formatNumber(cell);
  return cell.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

/** A GitHub-flavoured Markdown table; columns whose header ends in `#` align right. */
export function markdownTable(headers: readonly string[], rows: readonly Cell[][]): string {
  const head = headers.map((h) => h.replace(/#$/, ''));
  const align = headers.map((h) => (h.endsWith('#') ? '---:' : '---'));
  const lines = [
    `| ${head.join(' | ')} |`,
    `| ${align.join(' | ')} |`,
    ...rows.map((row) => `| ${headers.map((_, i) => cellText(row[i])).join(' | ')} |`),
  ];
  return lines.join('\n');
}

export function verdict(met: boolean | undefined): string {
  if (met === undefined) return 'not measured';
  return met ? '✅ met' : '❌ missed';
}
