/**
 * One webhook delivery attempt: a signed POST to the integrator's endpoint. The receiver is
 * outside our control and may be slow, broken or hostile, so an attempt is bounded in time
 * (one deadline for connecting, waiting for the answer and reading it) and in memory (at most
 * `maxResponseBytes` of the answer are read), never follows redirects (a redirect could lead
 * to an address the URL policy refused), and never throws: every outcome is a result that the
 * outbox records as one attempt.
 */

export interface WebhookDeliveryRequest {
  url: string;
  /** The raw JSON body, exactly as signed. */
  body: string;
  /** Sent as they are (signature included); `content-type` defaults to `application/json`. */
  headers: Record<string, string>;
  /** Deadline of the whole attempt, from connecting to reading the answer. */
  timeoutMs: number;
  /** How much of the answer is read at most; the rest is discarded unread. */
  maxResponseBytes: number;
}

export interface WebhookDeliveryResult {
  /** The receiver answered 2xx: the event is delivered. */
  ok: boolean;
  /** The receiver's HTTP status, or `null` when no answer arrived. */
  status: number | null;
  durationMs: number;
  /** Why the attempt failed, for the integrator to read in the event's attempts; `null` on success. */
  error: string | null;
}

/**
 * Sends one webhook delivery and reports how it went.
 *
 * A 2xx status is success even if reading the rest of the answer then fails or times out: the
 * receiver has accepted the event, and retrying would only deliver a duplicate.
 *
 * @example
 * const result = await deliverWebhook({
 *   url: endpoint.url,
 *   body,
 *   headers: { 'x-webhook-signature': signWebhook(body, endpoint.secret, nowSeconds) },
 *   timeoutMs: 10_000,
 *   maxResponseBytes: 64 * 1024,
 * });
 * if (!result.ok) scheduleRetry(result.error);
 */
export async function deliverWebhook(request: WebhookDeliveryRequest): Promise<WebhookDeliveryResult> {
  const started = performance.now();
  const finish = (status: number | null, error: string | null): WebhookDeliveryResult => ({
    ok: error === null,
    status,
    durationMs: Math.round(performance.now() - started),
    error,
  });

  let response: Response;
  let signal: AbortSignal;
  try {
    signal = AbortSignal.timeout(request.timeoutMs);
    response = await fetch(request.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...request.headers },
      body: request.body,
      redirect: 'manual',
      signal,
    });
  } catch (error) {
    return finish(null, describeFailure(error, request.timeoutMs));
  }

  // Reading (part of) the answer lets a well-behaved receiver's connection be reused; a
  // misbehaving one is cut off at the byte limit or at the deadline.
  await readAtMost(response, request.maxResponseBytes, signal);

  const { status } = response;
  if (response.type === 'opaqueredirect' || (status >= 300 && status < 400)) {
    return finish(status || null, `The endpoint redirected (HTTP ${status}); redirects are not followed.`);
  }
  if (status < 200 || status >= 300) {
    return finish(status, `The endpoint answered HTTP ${status}; only 2xx counts as delivered.`);
  }
  return finish(status, null);
}

async function readAtMost(response: Response, maxBytes: number, signal: AbortSignal): Promise<void> {
  if (!response.body) return;
  const reader = response.body.getReader();
  // Cancelling the reader ends a pending read() at once, whatever the fetch implementation
  // does with the signal once the headers have arrived.
  const stop = () => {
    reader.cancel().catch(() => {});
  };
  if (signal.aborted) return stop();
  signal.addEventListener('abort', stop, { once: true });
  try {
    let received = 0;
    while (received < maxBytes) {
      const { done, value } = await reader.read();
      if (done) return;
      received += value.byteLength;
    }
    stop();
  } catch {
    // The answer broke off after its status arrived: the status stands.
    stop();
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

const networkErrors: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection was closed while sending',
  ENOTFOUND: 'the host name could not be resolved',
  EAI_AGAIN: 'the host name could not be resolved (temporary DNS failure)',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_SOCKET: 'the connection was closed before an answer arrived',
  UND_ERR_CLOSED: 'the connection was closed before an answer arrived',
  UND_ERR_HEADERS_OVERFLOW: 'the answer headers were too large',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no answer arrived in time',
  HPE_INVALID_CONSTANT: 'the answer was not valid HTTP',
  HPE_INVALID_STATUS: 'the answer was not valid HTTP',
};

/**
 * A message for the integrator. It names the kind of failure and its code, never internal
 * addresses or stack traces.
 */
function describeFailure(error: unknown, timeoutMs: number): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (isTimeout(error) || isTimeout(cause)) return `No answer within ${timeoutMs} ms.`;
  if (error instanceof RangeError) return 'The delivery could not be attempted: the timeout is invalid.';
  const code = (cause as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string') {
    if (code === 'ERR_INVALID_URL') return 'The delivery could not be attempted: the URL is invalid.';
    const known =
      networkErrors[code] ?? (code.startsWith('HPE_') ? 'the answer was not valid HTTP' : undefined);
    return `The delivery failed: ${known ?? 'a network error occurred'} (${code}).`;
  }
  // The fetch standard forbids some ports (25, 6000, ...) whatever the URL policy allowed.
  if (cause instanceof Error && cause.message === 'bad port') {
    return 'The delivery could not be attempted: HTTP clients may not use this port.';
  }
  if (error instanceof TypeError && /header/i.test(error.message)) {
    return 'The delivery could not be attempted: a request header is invalid.';
  }
  return 'The delivery failed: a network error occurred.';
}

function isTimeout(error: unknown): boolean {
  return error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError');
}
