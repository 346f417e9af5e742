import { PaymentsConnectionError } from './errors.js';
import {
  backoffDelayMs,
  isRetryableStatus,
  maxRetryAfterMs,
  type RetryOptions,
  retryAfterMs,
} from './retry-policy.js';

export type Fetch = (input: Request) => Promise<Response>;

export interface RetryingFetchOptions {
  /** The fetch that sends each attempt. */
  fetch: Fetch;
  retry: RetryOptions;
  /** Each attempt is aborted after this long and counts as a network error. */
  timeoutMs: number;
  /** Waits between attempts; replaceable in tests. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/**
 * Wraps `fetch` so that each call is retried on network errors, timeouts, 429 and 5xx, with
 * exponential backoff and full jitter, honouring `Retry-After`. It is handed to openapi-fetch as
 * its `fetch`, after the middleware has run: every attempt is a clone of the same finished
 * request, with the same `Idempotency-Key`, so a retried `POST` never pays twice. Other 4xx are
 * answers, not accidents, and are returned at once.
 *
 * @example
 * ```ts
 * const client = createClient<paths>({
 *   baseUrl,
 *   fetch: retryingFetch({
 *     fetch: globalThis.fetch,
 *     retry: { maxRetries: 3, baseDelayMs: 200, maxDelayMs: 5_000 },
 *     timeoutMs: 10_000,
 *   }),
 * });
 * ```
 */
export function retryingFetch(options: RetryingFetchOptions): Fetch {
  const { fetch, retry, timeoutMs, sleep = abortableSleep } = options;
  return async (request) => {
    for (let attempt = 1; ; attempt++) {
      const retriesLeft = attempt <= retry.maxRetries;
      const { attemptRequest, timedOut: hasTimedOut } = attemptOf(request, timeoutMs);
      let response: Response;
      try {
        response = await fetch(attemptRequest);
        attempts.set(response, attemptRequest);
      } catch (error) {
        // The caller's own abort is a decision, not an accident: never retried.
        if (request.signal.aborted) throw error;
        const timedOut = hasTimedOut();
        if (!retriesLeft) {
          const what = timedOut ? `timed out after ${timeoutMs} ms` : describe(error);
          throw new PaymentsConnectionError(
            `${request.method} ${request.url} failed after ${attempt} attempt${attempt > 1 ? 's' : ''}: ${what}`,
            attempt,
            timedOut,
            { cause: error },
          );
        }
        await sleep(backoffDelayMs(attempt - 1, retry), request.signal);
        continue;
      }
      if (!retriesLeft || !isRetryableStatus(response.status)) return response;
      const askedMs = retryAfterMs(response.headers.get('Retry-After'));
      if (askedMs !== undefined && askedMs > maxRetryAfterMs) return response;
      await response.body?.cancel();
      // After Retry-After, a jittered extra wait spreads clients refused together, so they do
      // not all come back at the same instant and collide again.
      const waitMs =
        askedMs === undefined ? backoffDelayMs(attempt - 1, retry) : askedMs + backoffDelayMs(0, retry);
      await sleep(waitMs, request.signal);
    }
  };
}

/**
 * The Request of one attempt, aborted when the caller aborts or `timeoutMs` has passed, from
 * sending until the body is read. An AbortController held here, not `AbortSignal.timeout` and
 * `AbortSignal.any`: on Node 20 a composite signal nothing holds strongly can be collected
 * mid-request, and its timeout then never reaches fetch (seen on a process's first fetch).
 */
function attemptOf(request: Request, timeoutMs: number) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`The attempt timed out after ${timeoutMs} ms.`, 'TimeoutError'));
  }, timeoutMs);
  timer.unref?.();
  const forward = () => controller.abort(request.signal.reason);
  if (request.signal.aborted) forward();
  else request.signal.addEventListener('abort', forward, { once: true });
  const attemptRequest = new Request(request.clone(), { signal: controller.signal });
  return { attemptRequest, timedOut: () => timedOut && !request.signal.aborted };
}

/**
 * Each response keeps its attempt's Request (and so the signal chain fetch follows through
 * weak references) alive while the caller reads the body, so a timeout still cuts a slow body.
 */
const attempts = new WeakMap<Response, Request>();

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
