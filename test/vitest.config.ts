import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root,
  test: {
    include: ['test/**/*.test.ts'],
    // The fault tests kill and restart whole servers for about two minutes: their own script.
    exclude: ['**/node_modules/**', 'test/fixtures/**', ...(process.env.FAULTS ? [] : ['test/faults/**'])],
    // Each test file starts its own servers on their own SQLite files and free ports
    // (test/support/server.ts): nothing is shared between files, so they can run side by side.
    pool: 'forks',
    // On this 2-core machine vitest's default is one file at a time (cores - 1), each file in a
    // fresh process that loads every module again (~1 s of CPU per file). SQLite's suite
    // (test:unit) reuses one module cache per worker (isolate: false; every file starts its own
    // servers, files and ports, so nothing of a test outlives its file) and runs two files side
    // by side: 129-137 s in four shuffled runs, against 215-271 s isolated. On PostgreSQL much of
    // a test is waiting for the cluster: two isolated files side by side took 157-175 s instead
    // of ~200 s. The fault tests time kills and restarts: one isolated file at a time.
    minWorkers: 1,
    maxWorkers: process.env.FAULTS ? 1 : 2,
    isolate: Boolean(process.env.FAULTS || process.env.TEST_DATABASE === 'postgres'),
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
