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
    // On this 2-core machine vitest's default is one file at a time (cores - 1). SQLite's suite is
    // CPU-bound: two side by side took as long (215 s against 218 s) and gave ports and timings
    // more to race for, so it stays at one. On PostgreSQL much of a test is waiting for the
    // cluster: two side by side took 169-175 s instead of ~200 s (four: 259 s). The fault tests
    // time kills and restarts: one file at a time.
    minWorkers: 1,
    maxWorkers: process.env.TEST_DATABASE === 'postgres' && !process.env.FAULTS ? 2 : 1,
    // TEST_DATABASE=postgres: one throwaway PostgreSQL cluster for the run (test/support/server.ts).
    globalSetup: ['test/support/postgres-global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    typecheck: {
      // The type tests (*.test-d.ts) do not depend on the engine or on faults: test:unit runs
      // them, the PostgreSQL and fault runs do not type-check them again.
      enabled: !process.env.FAULTS && process.env.TEST_DATABASE !== 'postgres',
      include: ['test/**/*.test-d.ts'],
      tsconfig: 'tsconfig.json',
    },
    reporters: ['default'],
  },
});
