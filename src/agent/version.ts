/** The package version for the User-Agent, read from package.json once. */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const PackageSchema = z.looseObject({ version: z.string().min(1) });
let cached: string | undefined;

export function packageVersion(): string {
  if (cached !== undefined) return cached;
  try {
    // src/agent/ (tsx) and dist/agent/ (build) both sit two levels below the package root.
    const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
    const parsed = PackageSchema.safeParse(JSON.parse(text));
    cached = parsed.success ? parsed.data.version : '0.0.0';
  } catch {
    cached = '0.0.0';
  }
  return cached;
}
