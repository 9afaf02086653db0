// Unit tests beside the code and HTTP integration scenarios under test/.
// Browser end-to-end tests run under Playwright (e2e/), not here.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // All the built-in definitions loaded up front (see the file; a test of their lazy load opts out).
    setupFiles: ['test/setup/builtin-definitions.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
