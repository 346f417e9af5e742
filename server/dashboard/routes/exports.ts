import { type Response, Router } from 'express';
import { listBankBatches } from '../../domain/bank-batches.js';
import { iso } from '../../domain/clock.js';
import type { Caller, Deps } from '../../domain/context.js';
import { listUsers } from '../../domain/dashboard-users.js';
import { servicesOf } from '../../domain/dashboard-views.js';
import { listLogs } from '../../domain/logs.js';
import { listPayments } from '../../domain/payments.js';
import { listPayouts } from '../../domain/payouts.js';
import { listTopups } from '../../domain/topups.js';
import type { Page } from '../../storage/pagination.js';
import type { ListedPayoutRow, Mode } from '../../storage/rows.js';
import { type CsvColumns, sendListCsv } from '../csv.js';
import { translatorOf } from '../i18n.js';
import { callerOf, type Query, queryOf } from './context.js';
import { logQuery, paymentQuery, payoutQuery, topupQuery } from './list-queries.js';

const page = (cursor: string | undefined) => ({ limit: 100, cursor });

const payoutColumns: CsvColumns<ListedPayoutRow> = [
  ['id', (p) => p.id],
  ['created_at', (p) => iso(p.created_at)],
  ['status', (p) => p.status],
  ['payout_type', (p) => p.payout_type],
  ['amount', (p) => p.amount],
  ['currency', (p) => p.currency],
  ['recipient', (p) => p.recipient_msisdn ?? p.recipient_wallet_id ?? p.recipient_iban],
  ['payment_id', (p) => p.payment_id],
  ['bulk_id', (p) => p.bulk_id],
  ['bank_batch_id', (p) => p.bank_batch_id],
  ['reference', (p) => p.reference],
  ['failure_code', (p) => p.failure_code],
  ['completed_at', (p) => iso(p.completed_at)],
];

/** What an export reads: the caller, the list's filters (the page's form) and the account's zone. */
interface ExportRequest {
  deps: Deps;
  caller: Caller;
  form: Query;
  timeZone: string;
}

/** One list's export: its pages, as the list's page reads them, and its columns. */
interface ListExport<T extends { created_at: number }> {
  pages: (r: ExportRequest) => (cursor: string | undefined) => Promise<Page<T>>;
  columns: (r: ExportRequest) => Promise<CsvColumns<T>> | CsvColumns<T>;
}

/** A list's export, sent: the one shape every list's download takes. */
type Export = (r: ExportRequest, res: Response, file: string) => Promise<void>;

function listExport<T extends { created_at: number }>(e: ListExport<T>): Export {
  return async (r, res, file) => sendListCsv(res, file, r.timeZone, e.pages(r), await e.columns(r));
}

/**
 * Every list's CSV download, in one place and one way (`sendListCsv`): the list's path with
 * `.csv`, the same filters as the page (the same query builders, list-queries.ts), every
 * matching row. Times are UTC ISO 8601 (`created_at`, as the API writes them) and the
 * account's clock (`created_local`).
 */
const exports: Record<string, Export> = {
  payments: listExport({
    pages: (r) => (cursor) => listPayments(r.deps, r.caller, paymentQuery(r.form, r.timeZone), page(cursor)),
    columns: async (r) => {
      const names = new Map((await servicesOf(r.deps, r.caller)).map((s) => [s.id, s.name]));
      return [
        ['id', (p) => p.id],
        ['created_at', (p) => iso(p.created_at)],
        ['status', (p) => p.status],
        ['amount', (p) => p.amount],
        ['currency', (p) => p.currency],
        ['service_id', (p) => p.service_id],
        ['service_name', (p) => names.get(p.service_id) ?? null],
        ['flow', (p) => p.flow],
        ['payment_method', (p) => p.payment_method],
        ['customer_msisdn', (p) => p.customer_msisdn],
        ['reference', (p) => p.reference],
        ['failure_code', (p) => p.failure_code],
        ['refunded_amount', (p) => p.refunded_amount],
        ['completed_at', (p) => iso(p.completed_at)],
      ];
    },
  }),
  payouts: listExport({
    pages: (r) => (cursor) =>
      listPayouts(r.deps, r.caller, payoutQuery(r.form, false, r.timeZone), page(cursor)),
    columns: () => payoutColumns,
  }),
  refunds: listExport({
    pages: (r) => (cursor) =>
      listPayouts(r.deps, r.caller, payoutQuery(r.form, true, r.timeZone), page(cursor)),
    columns: () => payoutColumns,
  }),
  topups: listExport({
    pages: (r) => (cursor) => listTopups(r.deps, r.caller, topupQuery(r.form, r.timeZone), page(cursor)),
    columns: () => [
      ['id', (p) => p.id],
      ['created_at', (p) => iso(p.created_at)],
      ['status', (p) => p.status],
      ['amount', (p) => p.amount],
      ['currency', (p) => p.currency],
      ['payer_msisdn', (p) => p.payer_msisdn],
      ['payment_method', (p) => p.payment_method],
      ['reference', (p) => p.reference],
      ['failure_code', (p) => p.failure_code],
      ['completed_at', (p) => iso(p.completed_at)],
    ],
  }),
  logs: listExport({
    pages: (r) => (cursor) => listLogs(r.deps, r.caller, logQuery(r.form, r.timeZone), page(cursor)),
    columns: async (r) => {
      const users = await listUsers(r.deps, r.caller.accountId);
      const emails = new Map(users.map((u) => [u.id, u.email]));
      return [
        ['created_at', (l) => iso(l.created_at)],
        ['request_id', (l) => l.request_id],
        ['method', (l) => l.method],
        ['path', (l) => l.path],
        ['status', (l) => l.status],
        ['duration_ms', (l) => l.duration_ms],
        ['error_code', (l) => l.error_code],
        ['key_id', (l) => l.key_id],
        ['user', (l) => (l.user_id ? (emails.get(l.user_id) ?? l.user_id) : null)],
      ];
    },
  }),
  // The page lists the newest hundred batches, unpaged: the export has the same.
  'bank-batches': listExport({
    pages: (r) => async () => {
      const batches = await listBankBatches(r.deps, r.caller, 100);
      const items = batches.map((b) => ({ ...b, created_at: b.batch.created_at }));
      return { items, has_more: false, next_cursor: null };
    },
    columns: () => [
      ['id', (b) => b.batch.id],
      ['created_at', (b) => iso(b.created_at)],
      ['currency', (b) => b.batch.currency],
      ['payout_count', (b) => b.batch.payout_count],
      ['control_sum', (b) => b.batch.control_sum],
      ['pending_count', (b) => b.pendingCount],
      ['statements', (b) => b.statements.length],
    ],
  }),
};

/** `GET /<list>.csv` for every list of the dashboard. */
export function exportRoutes(deps: Deps, mode: Mode): Router {
  const router = Router();
  for (const [list, send] of Object.entries(exports)) {
    router.get(`/${list}.csv`, async (req, res) => {
      const r = {
        deps,
        caller: await callerOf(deps, req, mode),
        form: queryOf(req),
        timeZone: translatorOf(res).timeZone,
      };
      // The call logs kept the file name they had before every list exported.
      const file = `${list === 'logs' ? 'call-logs' : list}-${mode}.csv`;
      await send(r, res, file);
    });
  }
  return router;
}
