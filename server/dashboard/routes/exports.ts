import { type Request, type Response, Router } from 'express';
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

/** How one list exports: its file's name, and given the caller and the form, its CSV. */
type Export = (
  deps: Deps,
  caller: Caller,
  form: Query,
  req: Request,
  res: Response,
  file: string,
) => Promise<void>;

/**
 * Every list's CSV download, in one place and one way (`sendListCsv`): the list's path with
 * `.csv`, the same filters as the page (the same query builders, list-queries.ts), every
 * matching row. Times are UTC ISO 8601 (`created_at`, as the API writes them) and the
 * account's clock (`created_local`).
 */
const exports: Record<string, Export> = {
  payments: async (deps, caller, form, _req, res, file) => {
    const t = translatorOf(res);
    const names = new Map((await servicesOf(deps, caller)).map((s) => [s.id, s.name]));
    await sendListCsv(
      res,
      file,
      t.timeZone,
      (cursor) => listPayments(deps, caller, paymentQuery(form, t.timeZone), page(cursor)),
      [
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
      ],
    );
  },
  payouts: async (deps, caller, form, _req, res, file) => {
    const { timeZone } = translatorOf(res);
    await sendListCsv(
      res,
      file,
      timeZone,
      (cursor) => listPayouts(deps, caller, payoutQuery(form, false, timeZone), page(cursor)),
      payoutColumns,
    );
  },
  refunds: async (deps, caller, form, _req, res, file) => {
    const { timeZone } = translatorOf(res);
    await sendListCsv(
      res,
      file,
      timeZone,
      (cursor) => listPayouts(deps, caller, payoutQuery(form, true, timeZone), page(cursor)),
      payoutColumns,
    );
  },
  topups: async (deps, caller, form, _req, res, file) => {
    const { timeZone } = translatorOf(res);
    await sendListCsv(
      res,
      file,
      timeZone,
      (cursor) => listTopups(deps, caller, topupQuery(form, timeZone), page(cursor)),
      [
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
    );
  },
  logs: async (deps, caller, form, req, res, file) => {
    const { timeZone } = translatorOf(res);
    const users = await listUsers(deps, req.dashboard?.account.id ?? '');
    const emails = new Map(users.map((u) => [u.id, u.email]));
    await sendListCsv(
      res,
      file,
      timeZone,
      (cursor) => listLogs(deps, caller, logQuery(form, timeZone), page(cursor)),
      [
        ['created_at', (l) => iso(l.created_at)],
        ['request_id', (l) => l.request_id],
        ['method', (l) => l.method],
        ['path', (l) => l.path],
        ['status', (l) => l.status],
        ['duration_ms', (l) => l.duration_ms],
        ['error_code', (l) => l.error_code],
        ['key_id', (l) => l.key_id],
        ['user', (l) => (l.user_id ? (emails.get(l.user_id) ?? l.user_id) : null)],
      ],
    );
  },
  'bank-batches': async (deps, caller, _form, _req, res, file) => {
    const { timeZone } = translatorOf(res);
    // The page lists the newest hundred batches, unpaged: the export has the same.
    const batches = await listBankBatches(deps, caller, 100);
    const rows = batches.map((b) => ({ ...b, created_at: b.batch.created_at }));
    await sendListCsv(
      res,
      file,
      timeZone,
      async (): Promise<Page<(typeof rows)[number]>> => ({ items: rows, has_more: false, next_cursor: null }),
      [
        ['id', (b) => b.batch.id],
        ['created_at', (b) => iso(b.created_at)],
        ['currency', (b) => b.batch.currency],
        ['payout_count', (b) => b.batch.payout_count],
        ['control_sum', (b) => b.batch.control_sum],
        ['pending_count', (b) => b.pendingCount],
        ['statements', (b) => b.statements.length],
      ],
    );
  },
};

/** `GET /<list>.csv` for every list of the dashboard. */
export function exportRoutes(deps: Deps, mode: Mode): Router {
  const router = Router();
  for (const [list, send] of Object.entries(exports)) {
    router.get(`/${list}.csv`, async (req, res) => {
      const caller = await callerOf(deps, req, mode);
      // The call logs kept the file name they had before every list exported.
      const file = `${list === 'logs' ? 'call-logs' : list}-${mode}.csv`;
      await send(deps, caller, queryOf(req), req, res, file);
    });
  }
  return router;
}
