/**
 * How one environment value is read (a whole number in a range, an http(s) URL, an on/off
 * flag, a comma-separated list of ids), shared by the main schema and the console's
 * variables. Messages name the rule, never the value.
 */
import { z } from 'zod';

export const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

export const httpUrl = z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' });

export const flag = z
  .string()
  .transform((s) => s.toLowerCase())
  .pipe(
    z.enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'], {
      message: 'must be 1 or 0 (true/false, yes/no, on/off)',
    }),
  )
  .transform((s) => ['1', 'true', 'yes', 'on'].includes(s));

export const idList = (what: string, pattern: RegExp) =>
  z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(pattern, `must be comma-separated ${what}`)));
