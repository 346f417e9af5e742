/**
 * One HTTP call to an operator, timed and classified, for the adapters. Every call has a
 * deadline; what can go wrong is sorted into the kinds the adapters decide on and the metrics
 * count: the operator answered (any status), or the answer never came (`timeout`, `network`).
 * Nothing here logs request headers or bodies: they carry credentials.
 */
import type { OperatorKind } from './operator.js';

export type CallErrorKind = 'timeout' | 'network' | 'http_4xx' | 'http_5xx' | 'auth' | 'bad_response';

export interface OperatorCallObserver {
  /** One finished call: its latency, and the kind of error when it was one. */
  observe(call: {
    operator: string;
    call: string;
    durationSeconds: number;
    error: CallErrorKind | null;
    /** The products the call speaks for (both for a token they share); unset: none in particular. */
    products?: readonly OperatorKind[];
    /** The operator's HTTP status, when it answered. */
    httpStatus?: number | null;
  }): void;
}

/**
 * An adapter's `observe(call, started, error, detail)`: one operator's finished calls, timed
 * from `started` (a `performance.now()`), to its observer (the metrics and the connection
 * state, server/operators/operator-health.ts) when there is one.
 */
export function callObserver(operator: string, observer: OperatorCallObserver | undefined) {
  return (
    call: string,
    started: number,
    error: CallErrorKind | null,
    detail: { products?: readonly OperatorKind[]; httpStatus?: number | null } = {},
  ): void =>
    observer?.observe({
      operator,
      call,
      durationSeconds: (performance.now() - started) / 1000,
      error,
      ...detail,
    });
}

/** The HTTP status of an answer, or null when none came. */
export function statusOf(answer: HttpAnswer): number | null {
  return answer.ok ? answer.status : null;
}

export type HttpAnswer =
  /** `retryAfterMs`: what a 429's Retry-After asked for (seconds or an HTTP date), when it did. */
  | { ok: true; status: number; body: unknown; retryAfterMs?: number }
  | { ok: false; kind: 'timeout' | 'network' };

/** A Retry-After header (delta seconds or an HTTP date) as milliseconds from now. */
function retryAfterOf(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export async function httpCall(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
  timeoutMs: number,
): Promise<HttpAnswer> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    let body: unknown = null;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = null;
      }
    }
    if (response.status === 429) {
      const retryAfterMs = retryAfterOf(response.headers.get('retry-after'), Date.now());
      return { ok: true, status: 429, body, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
    }
    return { ok: true, status: response.status, body };
  } catch (err) {
    const name = (err as { name?: string }).name;
    return { ok: false, kind: name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network' };
  }
}

/** The error kind of an answer, for metrics and logs (null for a 2xx). */
export function errorKind(answer: HttpAnswer): CallErrorKind | null {
  if (!answer.ok) return answer.kind;
  if (answer.status === 401 || answer.status === 403) return 'auth';
  if (answer.status >= 500) return 'http_5xx';
  if (answer.status >= 400) return 'http_4xx';
  return null;
}

/**
 * A cached access token per product, refreshed well before it expires (a sixth of its life, at
 * most ten minutes: MTN advises ten minutes ahead for its 60-minute tokens) and on demand after
 * a 401; concurrent callers share one token request.
 */
export class TokenCache {
  private token: { value: string; refreshAt: number } | null = null;
  private inflight: Promise<string | null> | null = null;
  /**
   * Why the last token request failed: `auth` (the operator refused our credentials: nothing
   * will be accepted) or anything else (it could not be reached: try again later).
   */
  lastFailure: CallErrorKind | null = null;

  constructor(
    private readonly fetchToken: () => Promise<
      { value: string; expiresInSeconds: number } | { error: CallErrorKind }
    >,
    private readonly now: () => number = Date.now,
  ) {}

  async get(): Promise<string | null> {
    if (this.token && this.now() < this.token.refreshAt) return this.token.value;
    this.inflight ??= this.fetchToken()
      .then((fresh) => {
        if ('error' in fresh) {
          this.lastFailure = fresh.error;
          return null;
        }
        this.lastFailure = null;
        const lifeMs = fresh.expiresInSeconds * 1000;
        this.token = { value: fresh.value, refreshAt: this.now() + lifeMs - Math.min(600_000, lifeMs / 6) };
        return fresh.value;
      })
      .finally(() => {
        this.inflight = null;
      });
    return this.inflight;
  }

  /** The operator refused this token: the next `get` asks for a new one (once per stale token). */
  invalidate(stale: string): void {
    if (this.token?.value === stale) this.token = null;
  }
}
