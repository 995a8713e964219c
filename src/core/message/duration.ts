/** Durations: ISO 8601 from the service (`run_time`), short human text for people. */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Short human text: `0s`, `<1s`, `45s`, `4m 12s`, `4m`, `2h 5m`, `3d 4h`. Whole units only
 * (floored); negative or non-finite input reads `0s`.
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return '0s';
  if (ms < SECOND) return '<1s';
  const pair = (bigUnit: number, big: string, smallUnit: number, small: string): string => {
    const a = Math.floor(ms / bigUnit);
    const b = Math.floor((ms % bigUnit) / smallUnit);
    return b === 0 ? `${a}${big}` : `${a}${big} ${b}${small}`;
  };
  if (ms < MINUTE) return `${Math.floor(ms / SECOND)}s`;
  if (ms < HOUR) return pair(MINUTE, 'm', SECOND, 's');
  if (ms < DAY) return pair(HOUR, 'h', MINUTE, 'm');
  return pair(DAY, 'd', HOUR, 'h');
}

const NUM = '(\\d+(?:[.,]\\d+)?)';
const ISO_DURATION = new RegExp(
  `^P(?!$)(?:${NUM}Y)?(?:${NUM}M)?(?:${NUM}W)?(?:${NUM}D)?(?:T(?=\\d)(?:${NUM}H)?(?:${NUM}M)?(?:${NUM}S)?)?$`,
  'i',
);
/** Years and months have no fixed length: approximated as 365 and 30 days. */
const UNITS = [365 * DAY, 30 * DAY, 7 * DAY, DAY, HOUR, MINUTE, SECOND];

/**
 * `PT1M5.5S` -> 65 500. Accepts the designators Y, M, W, D, H, M, S with decimal fractions
 * (`.` or `,`). Anything else (including negative durations) -> `undefined`.
 */
export function parseIsoDuration(text: string): number | undefined {
  const m = ISO_DURATION.exec(text.trim());
  if (!m) return undefined;
  let ms = 0;
  UNITS.forEach((unit, i) => {
    const part = m[i + 1];
    if (part !== undefined) ms += Number(part.replace(',', '.')) * unit;
  });
  return Number.isFinite(ms) ? Math.round(ms) : undefined;
}

/**
 * How long ago, for people: `just now`, `5 minutes ago`, `3 hours ago`, `2 days ago`, or the
 * date (`on 2024-05-15`) past a month. A time in the future (clocks differ) reads `just now`.
 */
export function formatAgo(thenMs: number, nowMs: number): string {
  const ms = nowMs - thenMs;
  if (!Number.isFinite(ms) || ms < MINUTE) return 'just now';
  const say = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} ago`;
  if (ms < HOUR) return say(Math.floor(ms / MINUTE), 'minute');
  if (ms < DAY) return say(Math.floor(ms / HOUR), 'hour');
  if (ms < 30 * DAY) return say(Math.floor(ms / DAY), 'day');
  return `on ${new Date(thenMs).toISOString().slice(0, 10)}`;
}
