/**
 * The one way tests call the API.
 *
 * - `apiClient`: the project's own SDK (`createPaymentsClient`), typed from the contract, for
 *   the calls an integrator makes. It never retries (a test sees every answer the server gives)
 *   and, as the SDK does for every integrator, gives each POST an `Idempotency-Key`.
 * - `raw`: one request exactly as the test writes it, for what the SDK would never send
 *   (malformed JSON, wrong content types, bad or missing headers, unknown routes, no key).
 *
 * Both answer every HTTP status; only a request that got no answer rejects.
 */
import { createPaymentsClient, type PaymentsClient, requestIdOf } from '../../client/src/index.js';

/** Who a call is made as: the account's API user and one of its keys. */
export interface Credentials {
  apiUser: string;
  key: string;
}

/**
 * A client of `baseUrl` (ending in `/v1`) with `as`'s key: no retries, and a timeout longer
 * than a test's, so a slow answer on a busy machine fails the test by its own timeout.
 */
export function apiClient(
  baseUrl: string,
  as: Credentials,
  options: { sandbox?: boolean; timeoutMs?: number } = {},
): PaymentsClient {
  return createPaymentsClient({
    apiKey: as.key,
    apiUser: as.apiUser,
    baseUrl,
    retry: { maxRetries: 0 },
    timeoutMs: options.timeoutMs ?? 120_000,
    sandbox: options.sandbox ?? false,
  });
}

/**
 * The data of a successful SDK call; otherwise the test fails naming the status, the error and
 * the request id.
 *
 * @example
 * ```ts
 * const payment = ok(await server.api.POST('/payments', { body })).data;
 * ```
 */
export function ok<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) {
    throw new Error(
      `expected a success, got ${result.response.status} ${JSON.stringify(result.error)} (request ${requestIdOf(result.response)})`,
    );
  }
  return result.data;
}

export interface RawOptions {
  /** Sent as JSON, with `Content-Type: application/json`. */
  body?: unknown;
  /**
   * Sent as is (malformed JSON, other types): a string with fetch's `text/plain` unless `headers`
   * name another type, bytes or a Blob with no `Content-Type` at all.
   */
  rawBody?: string | Uint8Array<ArrayBuffer> | Blob;
  /** The credentials sent; `null` sends none. */
  as?: Credentials | null;
  /** Added last: they replace the credentials' and the content type's headers. */
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  /** The request is aborted after this long; by default it waits as long as the test may. */
  timeoutMs?: number;
}

/** One answer, whatever its status: the body is parsed when it says JSON, else the text. */
// biome-ignore lint/suspicious/noExplicitAny: what raw requests get back has no contract type; tests read it field by field
export interface RawReply<T = any> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

/**
 * Sends one request to `baseUrl + path` exactly as described, with no SDK in between.
 *
 * @example
 * ```ts
 * const answer = await raw(server.url, 'POST', '/payments', { rawBody: '{"amount":', as: server.test });
 * expect(answer.body.error.code).toBe('invalid_json');
 * ```
 */
// biome-ignore lint/suspicious/noExplicitAny: see RawReply
export async function raw<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: RawOptions = {},
): Promise<RawReply<T>> {
  const headers: Record<string, string> = {};
  if (options.as) {
    headers.authorization = `Bearer ${options.as.key}`;
    headers['x-api-user'] = options.as.apiUser;
  }
  let body: RawOptions['rawBody'];
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  Object.assign(headers, options.headers);
  const response = await fetch(`${baseUrl}${path}${queryString(options.query)}`, {
    method,
    headers,
    body,
    ...(options.timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(options.timeoutMs) }),
  });
  return readReply(response);
}

/** Reads a response whole, as `raw` does. */
export async function readReply(response: Response): Promise<RawReply> {
  return replyOf(response.status, response.headers, await response.text());
}

/** A reply from its parts: the body parsed when the content type says JSON. */
export function replyOf(status: number, headers: Headers, text: string): RawReply {
  return { status, headers, text, body: parseBody(headers, text) };
}

/** The body as JSON when the content type says JSON and it parses; else the text, for the assertion to show. */
function parseBody(headers: Headers, text: string) {
  if (!/[/+]json\b/.test(headers.get('content-type') ?? '') || text === '') return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function queryString(query: RawOptions['query']): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) search.append(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
