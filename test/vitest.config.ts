import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root,
  test: {
    include: ['test/**/*.test.ts'],
    // The fault tests kill and restart whole servers for about two minutes: their own script.
    exclude: ['**/node_modules/**', 'test/fixtures/**', ...(process.env.FAULTS ? [] : ['test/faults/**'])],
    // Each test file runs in its own process with its own SQLite file (test/support/server.ts):
    // nothing is shared between files, so they can run side by side.
    pool: 'forks',
    // TEST_DATABASE=postgres: one throwaway PostgreSQL cluster for the run (test/support/server.ts).
    globalSetup: ['test/support/postgres-global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: 'tsconfig.json',
    },
    reporters: ['default'],
  },
});
