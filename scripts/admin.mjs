/**
 * `npm run admin -- <command>`: the admin CLI (server/admin/cli.ts) as compiled in dist/, like
 * `npm start` runs the server: compiled first when a source changed (scripts/lib/run-compiled.mjs).
 * Under tsx it compiled the TypeScript on every run: 0.39 CPU-s a command against 0.11.
 */
import { runCompiled } from './lib/run-compiled.mjs';

await runCompiled('server/admin/cli.js');
