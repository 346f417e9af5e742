/**
 * vitest global setup: compiles dist/ once before any test file runs, when a source is newer
 * than it. The tests that start the real server as a child process run the compiled server, as
 * `npm start` does (test/support/child-server.ts); compiling here keeps two workers from
 * compiling at the same time.
 */
import { ensureCompiledServer } from './child-server.js';

export function setup(): void {
  ensureCompiledServer();
}
