import { isIP } from 'node:net';
import type { Request } from 'express';

/**
 * The client's address, by which limits per address count: the connection's, or, behind a
 * reverse proxy named by TRUST_PROXY, the last address of that header (the one the nearest
 * proxy appended: addresses before it are whatever the client wrote). A header that is absent
 * or holds no address leaves the connection's.
 */
export function clientAddress(req: Request, trustProxy: string | null): string {
  const socket = req.socket.remoteAddress ?? 'unknown';
  if (trustProxy === null) return socket;
  const header = req.headers[trustProxy];
  const value = Array.isArray(header) ? header[header.length - 1] : header;
  const last = value?.split(',').pop()?.trim() ?? '';
  return isIP(last) ? last : socket;
}
