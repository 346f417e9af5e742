/**
 * `npm start`: runs the compiled server (dist/server/main.js), compiled first when a source
 * changed since the last build (scripts/lib/run-compiled.mjs). Its arguments reach the server
 * (`--docs` keeps build/docs current).
 */
import { runCompiled } from './lib/run-compiled.mjs';

await runCompiled('server/main.js');
