import { createServer } from 'node:http';
import { createPaymentsClient } from './client/src/index.ts';
let n = 0;
const server = createServer(async (req, res) => {
  const i = n++;
  for await (const _ of req);
  if (i === 0) await new Promise((r) => setTimeout(r, 1000));
  if (!res.destroyed) { res.writeHead(202, {'content-type':'application/json'}); res.end('{"status":"success","data":{}}'); }
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const port = (server.address() as any).port;
const client = createPaymentsClient({ apiKey: 'sk_test_x', apiUser: 'u', baseUrl: `http://127.0.0.1:${port}/v1`, retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5 }, timeoutMs: 200 });
const t = performance.now();
const r = await client.POST('/payments', { body: { amount: 1 } as never });
console.log(r.response.status, n, Math.round(performance.now() - t));
server.close(); server.closeAllConnections();
