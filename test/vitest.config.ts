import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root,
  test: {
    include: ['test/**/*.test.ts'],
    // The fault tests kill and restart whole servers: their own scripts (test:faults, test:faults:postgres).
    exclude: ['**/node_modules/**', 'test/fixtures/**', ...(process.env.FAULTS ? [] : ['test/faults/**'])],
    // Each test file starts its own servers on their own SQLite files and free ports
    // (test/support/server.ts): nothing is shared between files, so they can run side by side.
    pool: 'forks',
    // On this 2-core machine vitest's default is one file at a time (cores - 1), each file in a
    // fresh process that loads every module again (~1 s of CPU per file). The suites on SQLite
    // and on PostgreSQL reuse one module cache per worker (isolate: false; every file starts its
    // own servers, files, databases and ports, so nothing of a test outlives its file) and run
    // two files side by side: test:unit 129-137 s in four shuffled runs against 215-271 s
    // isolated, test:postgres 100 s against 148-152 s. The fault tests kill and restart whole
    // servers and mount file systems: each file in a fresh process, two side by side (86 s
    // against 139 s one at a time).
    minWorkers: 1,
    maxWorkers: 2,
    isolate: Boolean(process.env.FAULTS),
    // dist/ compiled when stale (child servers run it, as npm start does); with
    // TEST_DATABASE=postgres, one throwaway PostgreSQL cluster for the run (test/support/server.ts).
    globalSetup: ['test/support/build-global-setup.ts', 'test/support/postgres-global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // How long a worker gets to exit at the end, after its SIGTERM and, 1 s later, its SIGKILL
    // (tinypool's). Vitest's 10 s default failed one test:postgres run whose 1,107 tests had all
    // passed, a worker not yet reaped 9 s after its SIGKILL (the cause was not found; a process
    // killed mid-write is reaped only once its I/O ends). A worker still not gone fails the run.
    teardownTimeout: 60_000,
    // The type tests (test/**/*.test-d.ts) are checked by the typecheck stage (`tsc -p
    // tsconfig.json`, which includes test/): a wrong `expectTypeOf` or an unused
    // `@ts-expect-error` fails it. Vitest does not compile them a second time.
    typecheck: { enabled: false },
    reporters: ['default'],
  },
});
