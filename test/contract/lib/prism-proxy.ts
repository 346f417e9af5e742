/**
 * Prism's validation proxy in front of the server: `prism proxy openapi.yaml <api>/v1 --errors`.
 *
 * Prism serves the spec's paths at its root (the server URL's `/v1` is not part of its routes)
 * and forwards each call to the upstream URL plus the path: clients use
 * `http://127.0.0.1:<port>` as their base URL, and Prism calls `<api>/v1/...`.
 *
 * What Prism reports, as observed with Prism 5.14:
 * - a request that breaks the contract is not forwarded: Prism answers 422 (or 401 for missing
 *   credentials) with an `application/problem+json` body of type `https://stoplight.io/prism/errors#...`;
 * - a response that breaks the contract (schema, media type) is replaced, with `--errors`, by a
 *   500 problem of type `...#VIOLATIONS`, the violations also in the `sl-violations` header;
 * - a status the operation does not document is only a warning: the response passes through
 *   unchanged, with the warning in `sl-violations`.
 * So a call honoured the contract exactly when the response has no `sl-violations` header and
 * is not a Prism problem document.
 */
import { freePort } from '../../support/ports.js';
import { specPath } from '../../support/spec.js';
import { type Child, spawnChild } from './processes.js';
import { bin, repoRoot } from './server.js';

export interface PrismProxy {
  baseUrl: string;
  child: Child;
  stop(): Promise<void>;
}

export async function startPrismProxy(
  upstream: string,
  options: { validateRequest: boolean },
): Promise<PrismProxy> {
  const port = await freePort();
  const args = ['proxy', specPath, upstream, '--errors', '-p', String(port), '-h', '127.0.0.1'];
  if (!options.validateRequest) args.push('--validate-request=false');
  const child = spawnChild(
    `prism proxy (${options.validateRequest ? 'strict' : 'responses only'})`,
    bin('prism'),
    args,
    {
      cwd: repoRoot,
    },
  );
  try {
    await child.waitFor(/Prism is listening on/, 60_000);
  } catch (err) {
    await child.stop();
    throw err;
  }
  return { baseUrl: `http://127.0.0.1:${port}`, child, stop: () => child.stop() };
}

export interface PrismFinding {
  /** `request` when Prism refused to forward, `response` when the server's answer broke the contract. */
  side: 'request' | 'response';
  details: string;
}

/** What Prism found wrong with the exchange that produced `response`, if anything. */
export async function prismFinding(response: Response): Promise<PrismFinding | undefined> {
  const violations = response.headers.get('sl-violations');
  let problem: { type?: string; validation?: unknown; detail?: string } | undefined;
  if ((response.headers.get('content-type') ?? '').includes('application/problem+json')) {
    problem = await response
      .clone()
      .json()
      .catch(() => undefined);
  }
  const fromPrism = problem?.type?.startsWith('https://stoplight.io/prism/errors#');
  if (!violations && !fromPrism) return undefined;
  const details = violations ?? JSON.stringify(problem?.validation ?? problem?.detail ?? problem);
  const side =
    /"location":\["(response)"/.test(details) || problem?.type?.endsWith('#VIOLATIONS')
      ? 'response'
      : 'request';
  return { side, details: `${response.status} ${problem?.type ?? ''} ${details}`.trim() };
}
