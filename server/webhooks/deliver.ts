/**
 * One webhook delivery attempt: a signed POST to the integrator's endpoint. The receiver is
 * outside our control and may be slow, broken or hostile, so an attempt is bounded in time
 * (one deadline for connecting, waiting for the answer and reading it) and in memory (at most
 * `maxResponseBytes` of the answer are read), never follows redirects (a redirect could lead
 * to an address the URL policy refused), and never throws: every outcome is a result that the
 * outbox records as one attempt.
 *
 * The connection goes to `address`, the IP address the URL policy validated, never to a fresh
 * resolution of the host name (DNS rebinding): the `Host` header and the TLS server name (SNI,
 * and the name the certificate must match) are the URL's host. Connections are kept alive and
 * reused per address and server name, so a busy receiver is not paying a handshake per event.
 *
 * What the integrator reads of a failure is coarse on purpose: a refused, reset, timed-out or
 * non-HTTP connection all read the same, so delivery results cannot be used to probe which
 * ports of a host are closed, filtered or open.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';

export interface WebhookDeliveryRequest {
  url: string;
  /**
   * The IP address to connect to, as validated by the URL policy. Without it the URL's host is
   * used as it is (only the tests of this module do that, with IP literals).
   */
  address?: string;
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
  /** The receiver's HTTP status, or `null` when no HTTP answer arrived. */
  status: number | null;
  durationMs: number;
  /** Why the attempt failed, for the integrator to read in the event's attempts; `null` on success. */
  error: string | null;
  /** For our logs only: the low-level cause of a failure without an answer (a code, never an address). */
  cause?: string;
}

/** The one message for every attempt that got no HTTP answer: see the module comment. */
export const noAnswerError = 'No valid HTTP answer was received from the endpoint within the time allowed.';

const agents = {
  'http:': new http.Agent({ keepAlive: true, scheduling: 'lifo' }),
  'https:': new https.Agent({ keepAlive: true, scheduling: 'lifo' }),
};

/**
 * Sends one webhook delivery and reports how it went.
 *
 * A 2xx status is success even if reading the rest of the answer then fails or times out: the
 * receiver has accepted the event, and retrying would only deliver a duplicate.
 *
 * @example
 * const result = await deliverWebhook({
 *   url: endpoint.url,
 *   address: target.address,
 *   body,
 *   headers: { 'x-webhook-signature': signWebhook(body, endpoint.secret, nowSeconds) },
 *   timeoutMs: 10_000,
 *   maxResponseBytes: 64 * 1024,
 * });
 * if (!result.ok) scheduleRetry(result.error);
 */
export function deliverWebhook(request: WebhookDeliveryRequest): Promise<WebhookDeliveryResult> {
  const started = performance.now();
  const finish = (status: number | null, error: string | null, cause?: string): WebhookDeliveryResult => ({
    ok: error === null,
    status,
    durationMs: Math.round(performance.now() - started),
    error,
    ...(cause ? { cause } : {}),
  });

  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return Promise.resolve(finish(null, 'The delivery could not be attempted: the URL is invalid.'));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return Promise.resolve(finish(null, 'The delivery could not be attempted: the URL is invalid.'));
  }
  if (!Number.isFinite(request.timeoutMs) || request.timeoutMs <= 0) {
    return Promise.resolve(finish(null, 'The delivery could not be attempted: the timeout is invalid.'));
  }

  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const address = request.address ?? hostname;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...request.headers,
    host: url.host,
    'content-length': String(Buffer.byteLength(request.body, 'utf8')),
  };

  return new Promise((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const done = (result: WebhookDeliveryResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    let req: http.ClientRequest;
    try {
      req = (url.protocol === 'https:' ? https : http).request({
        protocol: url.protocol,
        host: address,
        port: url.port || (url.protocol === 'https:' ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers,
        agent: url.protocol === 'https:' ? agents['https:'] : agents['http:'],
        // The certificate must match the URL's host, and SNI names it; an IP literal has no SNI.
        ...(url.protocol === 'https:' && isIP(hostname) === 0 ? { servername: hostname } : {}),
      });
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      return done(
        finish(
          null,
          code === 'ERR_INVALID_CHAR' || code === 'ERR_INVALID_HTTP_TOKEN'
            ? 'The delivery could not be attempted: a request header is invalid.'
            : 'The delivery could not be attempted: the URL is invalid.',
          code,
        ),
      );
    }

    timer = setTimeout(() => {
      const timeout = Object.assign(new Error('deadline'), { code: 'DEADLINE' });
      req.destroy(timeout);
    }, request.timeoutMs);

    // Once a status has arrived it stands, whatever happens to the rest of the answer.
    let settleAnswered: (() => void) | undefined;
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (settleAnswered) settleAnswered();
      else done(finish(null, noAnswerError, error.code ?? 'ERROR'));
    });
    req.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const verdict =
        status >= 300 && status < 400
          ? finish(status, `The endpoint redirected (HTTP ${status}); redirects are not followed.`)
          : status < 200 || status >= 300
            ? finish(status, `The endpoint answered HTTP ${status}; only 2xx counts as delivered.`)
            : null;
      // Reading (part of) the answer lets a well-behaved receiver's connection be reused; a
      // misbehaving one is cut off at the byte limit or at the deadline.
      let received = 0;
      const settle = () => done(verdict ?? finish(status, null));
      settleAnswered = settle;
      response.on('data', (chunk: Buffer) => {
        received += chunk.byteLength;
        if (received >= request.maxResponseBytes) {
          response.destroy();
          req.destroy();
          settle();
        }
      });
      response.on('end', settle);
      // A body that breaks off or is cut at the deadline: the status stands.
      response.on('error', settle);
      response.on('close', settle);
    });
    req.end(request.body);
  });
}
