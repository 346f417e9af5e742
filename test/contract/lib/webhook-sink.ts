/**
 * A webhook endpoint on 127.0.0.1 that acknowledges every delivery, so that the webhook
 * endpoints the tools register point somewhere local and their deliveries succeed.
 */
import { createServer } from 'node:http';

export interface WebhookSink {
  url: string;
  received(): number;
  close(): Promise<void>;
}

export async function startWebhookSink(): Promise<WebhookSink> {
  let count = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count += 1;
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}/webhooks`,
    received: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
