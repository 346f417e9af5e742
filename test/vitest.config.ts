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
    // Vitest's default on this 2-core machine is one file at a time (cores - 1), which left a
    // core idle (test:unit: 218 s at 102% CPU). Two side by side use both; more only adds
    // contention (4: 205 s at 152% CPU, and timing-sensitive tests get slower). On PostgreSQL
    // the cluster shares the cores: 2 took 181 s (1: ~200 s; 4: 259 s). The fault tests time
    // kills and restarts: one file at a time.
    minWorkers: 1,
    maxWorkers: process.env.FAULTS ? 1 : 2,
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
