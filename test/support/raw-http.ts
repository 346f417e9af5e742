import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { type RawReply, replyOf } from './api.js';

/**
 * `raw` (./api.js) below fetch: for the requests fetch refuses to send (a malformed request
 * line, two Content-Lengths, a body cut short). Sends bytes exactly as given, in the pieces
 * given (with `pauseMs` between them, so the server reads each on its own), and reads the
 * answer until the server closes or it is complete; the reply is `raw`'s.
 */
export function rawBytes(
  port: number,
  bytes: string | Buffer | Array<string | Buffer>,
  options: { pauseMs?: number } = {},
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer; got ${Buffer.concat(chunks).toString('latin1')}`));
    }, 10_000);
    const tryParse = (final: boolean) => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) return final ? reject(new Error(`no header block in ${text}`)) : undefined;
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const headers = new Headers();
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers.set(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      }
      const body = text.slice(split + 4);
      const length = Number(headers.get('content-length') ?? Number.NaN);
      if (!final && !(Number.isFinite(length) && Buffer.byteLength(body) >= length)) return undefined;
      clearTimeout(timer);
      socket.destroy();
      resolve(replyOf(Number(statusLine?.split(' ')[1]), headers, body));
    };
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      tryParse(false);
    });
    socket.on('end', () => tryParse(true));
    socket.on('error', reject);
    void (async () => {
      const pieces = Array.isArray(bytes) ? bytes : [bytes];
      for (const [i, piece] of pieces.entries()) {
        if (i > 0) await sleep(options.pauseMs ?? 20);
        socket.write(piece);
      }
    })();
  });
}

/** Sends `bytes` (a request cut short), then hangs up: resolves once the socket is closed. */
export function sendAndHangUp(port: number, bytes: string | Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(bytes, async () => {
        await sleep(50);
        socket.destroy();
      });
    });
    socket.on('close', () => resolve());
    socket.on('error', reject);
  });
}
