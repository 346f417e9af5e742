import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { ErrorCode } from '../../generated/openapi.js';
import { newId } from '../domain/ids.js';

function answerFor(code: string | undefined): {
  status: number;
  reason: string;
  error: ErrorCode;
  message: string;
} {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return {
      status: 431,
      reason: 'Request Header Fields Too Large',
      error: 'headers_too_large',
      message: 'The request headers are too large.',
    };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return {
      status: 408,
      reason: 'Request Timeout',
      error: 'malformed_request',
      message: 'The request did not arrive in time.',
    };
  }
  return {
    status: 400,
    reason: 'Bad Request',
    error: 'malformed_request',
    message: 'The HTTP request is malformed and could not be read.',
  };
}

/**
 * Requests Node's HTTP parser refuses before Express sees them (malformed framing, oversized
 * headers, a request that never finishes) are answered like every other error: the envelope
 * with a request id, in the body and in `X-Request-Id`; logged as a warning, not an error,
 * since the client is at fault.
 */
export function answerClientErrors(server: Server, logger: Logger): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const answer = answerFor(err.code);
    const requestId = newId('req');
    const body = JSON.stringify({
      status: 'error',
      error: { code: answer.error, message: answer.message, request_id: requestId },
    });
    logger.warn(
      { request_id: requestId, code: err.code, status: answer.status },
      'malformed request refused',
    );
    socket.end(
      `HTTP/1.1 ${answer.status} ${answer.reason}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        'X-Content-Type-Options: nosniff\r\n' +
        'Cache-Control: no-store\r\n' +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}
