import type { Page } from '../storage/pagination.js';
import type {
  CallLogRow,
  ListedPaymentRow,
  ListedPayoutRow,
  ListedTopupRow,
  PaymentRow,
  ServiceRow,
} from '../storage/rows.js';
import { defineRendering } from '../storage/unit.js';
import { success } from './envelope.js';
import { toLog, toPage, toPayment, toPayout, toService, toTopup } from './representations.js';

/**
 * The responses an idempotent POST stores inside its named unit of work, known by name so the
 * SQLite writer thread can render them (server/storage/unit.ts, server/domain/transaction.ts).
 * Each is the same envelope the route sends.
 */
export const paymentResponse = defineRendering('payment', (row: PaymentRow, publicUrl: string) =>
  success(toPayment(row, publicUrl)),
);

/**
 * The pages of the account lists, rendered where they are read (server/domain/lists.ts): on
 * SQLite the reader thread renders the page and hands the event loop its JSON text, which
 * crosses between threads far more cheaply than the rows (docs/benchmarks.md: the list +11%).
 * Each is the envelope the route would have sent.
 */
export const paymentsPage = defineRendering(
  'page.payments',
  (page: Page<ListedPaymentRow>, publicUrl: string) =>
    success(toPage(page, (row) => toPayment(row, publicUrl))),
);
export const payoutsPage = defineRendering('page.payouts', (page: Page<ListedPayoutRow>, _: null) =>
  success(toPage(page, toPayout)),
);
export const topupsPage = defineRendering('page.topups', (page: Page<ListedTopupRow>, _: null) =>
  success(toPage(page, toTopup)),
);
export const servicesPage = defineRendering('page.services', (page: Page<ServiceRow>, _: null) =>
  success(toPage(page, toService)),
);
export const logsPage = defineRendering('page.logs', (page: Page<CallLogRow>, _: null) =>
  success(toPage(page, toLog)),
);
