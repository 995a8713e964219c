import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A request a fake's published description refuses fails the test (src/fakes/published.ts).
    setupFiles: ['test/setup/published-fakes.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
