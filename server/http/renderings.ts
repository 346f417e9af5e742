import type { Creation, Rotation } from '../domain/accounts.js';
import type { AppliedStatement, BankBatch } from '../domain/bank-batches.js';
import type { BulkPayout } from '../domain/payouts.js';
import type { Page } from '../storage/pagination.js';
import type {
  ApiKeyRow,
  CallLogRow,
  DeliveryRow,
  ListedPaymentRow,
  ListedPayoutRow,
  ListedTopupRow,
  PaymentRow,
  PayoutRow,
  ServiceRow,
  TopupRow,
  WebhookEndpointRow,
} from '../storage/rows.js';
import { defineRendering } from '../storage/unit.js';
import { success } from './envelope.js';
import {
  toApiKey,
  toBankBatch,
  toDelivery,
  toLog,
  toPage,
  toPayment,
  toPayout,
  toService,
  toTopup,
  toWebhookEndpoint,
} from './representations.js';

/**
 * The responses of the API's writes and lists, each the envelope the operation sends. Defined by
 * name (server/storage/unit.ts) because they are rendered where the engine runs the work: a
 * write's response inside its transaction, and stored there under its Idempotency-Key
 * (server/domain/write.ts); a list's page where it is read (docs/performance.md). The
 * operations name theirs beside their routes (server/routes/).
 */
const url = import.meta.url;

export const paymentResponse = defineRendering(url, 'payment', (row: PaymentRow, publicUrl: string) =>
  success(toPayment(row, publicUrl)),
);
export const payoutResponse = defineRendering(url, 'payout', (row: PayoutRow) => success(toPayout(row)));
export const bulkPayoutResponse = defineRendering(url, 'bulk-payout', (bulk: BulkPayout) =>
  success({
    bulk_id: bulk.bulkId,
    currency: bulk.currency,
    count: bulk.payouts.length,
    total_amount: bulk.totalAmount,
    items: bulk.payouts.map(toPayout),
  }),
);
export const bankBatchResponse = defineRendering(url, 'bank-batch', (batch: BankBatch | null) =>
  success(toBankBatch(batch as BankBatch)),
);
export const bankStatementResponse = defineRendering(url, 'bank-statement', (applied: AppliedStatement) =>
  success({
    batch_id: applied.batchId,
    message_id: applied.messageId,
    applied: applied.applied,
    entries: applied.entries.map((entry) => ({
      end_to_end_id: entry.endToEndId,
      outcome: entry.outcome,
      transaction_id: entry.payout?.id ?? null,
      payout_status: entry.payout?.status ?? null,
      failure_code: entry.payout?.failure_code ?? null,
    })),
  }),
);
export const topupResponse = defineRendering(url, 'topup', (row: TopupRow) => success(toTopup(row)));
export const serviceResponse = defineRendering(url, 'service', (row: ServiceRow) => success(toService(row)));

/** An endpoint with its secret: shown only when it is created or its secret rotated, never replayed. */
export const endpointWithSecretResponse = defineRendering(
  url,
  'webhook-endpoint-with-secret',
  (row: WebhookEndpointRow) => success({ ...toWebhookEndpoint(row), secret: row.secret }),
  { withhold: (row) => row.id },
);
export const deliveriesResponse = defineRendering(url, 'deliveries', (rows: DeliveryRow[]) =>
  success({ items: rows.map(toDelivery), has_more: false, next_cursor: null }),
);

/** A new secret key is shown once: a replay of its rotation is refused, never shown again. */
export const rotationResponse = defineRendering(
  url,
  'api-key-rotation',
  (rotation: Rotation, now: number) =>
    success({
      secret_key: rotation.secretKey,
      api_key: toApiKey(rotation.apiKey, now),
      previous_key: toApiKey(rotation.previousKey, now),
    }),
  { withhold: (rotation) => rotation.apiKey.id },
);
/** A created key is shown once, as a rotated one is. */
export const creationResponse = defineRendering(
  url,
  'api-key-creation',
  (creation: Creation, now: number) =>
    success({ secret_key: creation.secretKey, api_key: toApiKey(creation.apiKey, now) }),
  { withhold: (creation) => creation.apiKey.id },
);
export const apiKeyResponse = defineRendering(url, 'api-key', (row: ApiKeyRow, now: number) =>
  success(toApiKey(row, now)),
);

export const paymentsPage = defineRendering(
  url,
  'page.payments',
  (page: Page<ListedPaymentRow>, publicUrl: string) =>
    success(toPage(page, (row) => toPayment(row, publicUrl))),
);
export const payoutsPage = defineRendering(url, 'page.payouts', (page: Page<ListedPayoutRow>, _: null) =>
  success(toPage(page, toPayout)),
);
export const topupsPage = defineRendering(url, 'page.topups', (page: Page<ListedTopupRow>, _: null) =>
  success(toPage(page, toTopup)),
);
export const servicesPage = defineRendering(url, 'page.services', (page: Page<ServiceRow>, _: null) =>
  success(toPage(page, toService)),
);
export const logsPage = defineRendering(url, 'page.logs', (page: Page<CallLogRow>, _: null) =>
  success(toPage(page, toLog)),
);
