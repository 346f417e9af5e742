import type { PaymentRow } from '../storage/rows.js';
import { defineRendering } from '../storage/unit.js';
import { success } from './envelope.js';
import { toPayment } from './representations.js';

/**
 * The responses an idempotent POST stores inside its named unit of work, known by name so the
 * SQLite writer thread can render them (server/storage/unit.ts, server/domain/transaction.ts).
 * Each is the same envelope the route sends.
 */
export const paymentResponse = defineRendering('payment', (row: PaymentRow, publicUrl: string) =>
  success(toPayment(row, publicUrl)),
);
