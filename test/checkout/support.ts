/** What both checkout files assert once a hosted payment is paid. */
import { expect } from 'vitest';
import { ok } from '../support/api.js';
import type { TestServer } from '../support/server.js';

/** The payment was charged once: one event, and one credit on the balance's ledger. */
export async function expectChargedOnce(server: TestServer, paymentId: string) {
  const events = ok(
    await server.api.GET('/events', { params: { query: { transaction_id: paymentId } } }),
  ).data;
  expect(events.items).toHaveLength(1);
  const ledger = ok(
    await server.api.GET('/balance/transactions', { params: { query: { limit: 100 } } }),
  ).data;
  expect(ledger.items.filter((entry) => entry.source_id === paymentId)).toHaveLength(1);
}
