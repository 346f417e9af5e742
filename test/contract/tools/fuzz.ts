import { execFileSync } from 'node:child_process';
import { runFuzzer } from '../fuzz/fuzzer.js';
import { Api, createFixtures, testCredentials } from '../lib/api.js';
import type { Tool } from './types.js';

/** Cases per operation and phase; ~1 minute on 2 cores at the default. */
const defaultRuns = 60;

/**
 * In CI the seed comes from the commit, so a run can be repeated exactly (a fresh clone of the
 * same commit fuzzes the same cases) while every commit explores new ones; elsewhere it is random.
 */
function defaultSeed(): number {
  if (process.env.CI) {
    try {
      const head = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
      return Number.parseInt(head.slice(0, 7), 16);
    } catch {
      // not a git checkout: fall through to a random seed
    }
  }
  return Math.floor(Math.random() * 2 ** 31);
}

export const fuzzTool: Tool = {
  name: 'fuzz',
  description: 'property-based fuzzer (fast-check) generating requests from openapi.yaml',
  async run({ server, sink, log }) {
    const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : defaultSeed();
    const runs = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : defaultRuns;
    if (!Number.isInteger(seed) || !Number.isInteger(runs) || runs < 1) {
      throw new Error(
        `FUZZ_SEED and FUZZ_RUNS must be integers (got ${process.env.FUZZ_SEED}, ${process.env.FUZZ_RUNS})`,
      );
    }
    log(`seed ${seed} (FUZZ_SEED=${seed} replays it), ${runs} cases per operation and phase (FUZZ_RUNS)`);
    const [frozen, other] = await Promise.all([
      server.createAccount('Fuzzer frozen account'),
      server.createAccount('Fuzzer other account'),
    ]);
    // Both fuzzed accounts start with real objects and money; the frozen one then only ever
    // receives invalid requests.
    await Promise.all([
      createFixtures(new Api(server.apiUrl, testCredentials(server.account)), sink.url),
      createFixtures(new Api(server.apiUrl, testCredentials(frozen)), sink.url),
    ]);
    const result = await runFuzzer({
      apiUrl: server.apiUrl,
      main: server.account,
      frozen,
      other,
      uriBase: sink.url,
      seed,
      runs,
      log,
    });
    const total = result.stats.reduce((n, s) => n + s.valid + s.invalid + s.auth, 0);
    const discarded = result.stats.reduce((n, s) => n + s.discarded, 0);
    return {
      ok: result.failures.length === 0,
      summary: [
        `${total} cases over ${result.stats.length} operations (${result.requests} HTTP requests, seed ${seed}, ${runs} runs per phase; ${discarded} generated invalid cases discarded as not actually invalid)`,
        'checks: not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance, negative_data_rejection, ignored_auth',
      ],
      failures: result.failures,
    };
  },
};
