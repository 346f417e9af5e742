import { once } from 'node:events';
import * as balance from '../domain/balance.js';
import { iso } from '../domain/clock.js';
import type { Deps } from '../domain/context.js';
import { csvField } from '../http/csv.js';
import { sendSuccess } from '../http/envelope.js';
import type { OperationRouter } from '../http/operation-router.js';
import { toLedgerEntry, toPage } from '../http/representations.js';
import type { LedgerRow } from '../storage/rows.js';
import { callerOf, listQuery, pageOf, text, time } from './query.js';

const csvColumns = 'id,created_at,type,amount,currency,balance_after,source_id,description';

function csvLine(row: LedgerRow): string {
  return `${[
    row.id,
    iso(row.created_at),
    row.type,
    row.amount,
    row.currency,
    row.balance_after,
    row.source_id,
    row.description,
  ]
    .map(csvField)
    .join(',')}\n`;
}

export function balanceRoutes(deps: Deps, router: OperationRouter): void {
  router.get('/balance', async (req, res) => {
    const caller = callerOf(req);
    const { walletId, balances } = await balance.getBalance(deps, caller);
    sendSuccess(res, 200, {
      wallet_id: walletId,
      mode: caller.mode,
      default_currency: caller.defaultCurrency,
      balances,
    });
  });

  router.get('/balance/transactions', async (req, res) => {
    const page = await balance.listLedger(
      deps,
      callerOf(req),
      listQuery<'listBalanceTransactions'>(req),
      pageOf(req),
    );
    sendSuccess(res, 200, toPage(page, toLedgerEntry));
  });

  // Streamed: rows are written as they are read, waiting for the client when it is slower.
  router.get('/reports/balance-transactions', async (req, res) => {
    const rows = balance.iterateLedger(deps, callerOf(req), {
      from: time(req, 'created_gte') as number,
      to: time(req, 'created_lt') as number,
      currency: text(req, 'currency') ?? null,
    });
    res.status(200);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', 'attachment; filename="balance-transactions.csv"');
    res.write(`${csvColumns}\n`);
    for await (const row of rows) {
      if (!res.write(csvLine(row))) await once(res, 'drain');
      if (res.destroyed) return;
    }
    res.end();
  });
}
