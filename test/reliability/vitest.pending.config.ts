/**
 * Runs the PENDING reliability tests (product bugs found by the suite, not yet fixed), which
 * `npm test` leaves out:  npx vitest run --config test/reliability/vitest.pending.config.ts
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../../', import.meta.url)),
    include: ['test/reliability/*.pending.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
  },
});
