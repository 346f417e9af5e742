/**
 * Fills a database with payments and call-log rows of one account, straight into the SQLite
 * file (the server is not running), in one transaction per 50,000 rows. Rows follow
 * server/storage/sqlite/migrations/001_initial.sql: real ids, an existing service, settled payments
 * only (so the settlement worker has nothing to pick up) and times within the last ten days
 * (so the call-log retention purge deletes nothing). No ledger rows are written: the lists
 * measured here do not read them.
 */
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { newId } from '../../server/domain/ids.js';

export interface Seeded {
  accountId: string;
  serviceId: string;
  payments: number;
  callLogs: number;
  /** The `seq` half-way through the account's payments: a deep page starts below it. */
  paymentsMidSeq: number;
  callLogsMidSeq: number;
  seconds: number;
}

const batch = 50_000;

export function seedDatabase(path: string, apiUser: string, rows: number): Seeded {
  const started = performance.now();
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('foreign_keys = ON');
  db.pragma('cache_size = -262144');
  try {
    const account = db.prepare('SELECT id FROM accounts WHERE api_user = ?').get(apiUser) as
      | { id: string }
      | undefined;
    if (!account) throw new Error(`no account with API user ${apiUser} in ${path}`);
    const key = db
      .prepare("SELECT id FROM api_keys WHERE account_id = ? AND mode = 'test' ORDER BY seq LIMIT 1")
      .get(account.id) as { id: string };
    const now = Date.now();
    const first = now - 10 * 86_400_000;
    const step = Math.max(1, Math.floor((now - 60_000 - first) / rows));

    const serviceId = newId('svc');
    db.prepare(
      `INSERT INTO services (id, account_id, mode, name, description, type, status, created_at, updated_at)
       VALUES (?, ?, 'test', 'Bench seed', NULL, 'website', 'active', ?, ?)`,
    ).run(serviceId, account.id, first, first);

    const insertPayment = db.prepare(
      `INSERT INTO payments (id, account_id, mode, amount, currency, status, flow, payment_method, customer_msisdn,
         service_id, reference, failure_code, refunded_amount, checkout_token, operator_ref, next_check_at,
         expires_at, created_at, updated_at, completed_at)
       VALUES (?, ?, 'test', ?, 'XAF', ?, 'direct', ?, ?, ?, ?, ?, 0, NULL, ?, NULL, ?, ?, ?, ?)`,
    );
    const insertLog = db.prepare(
      `INSERT INTO call_logs (id, account_id, mode, request_id, method, path, status, duration_ms, key_id,
         error_code, created_at)
       VALUES (?, ?, 'test', ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const paymentsBatch = db.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const createdAt = first + i * step;
        const roll = i % 50;
        const status = roll < 45 ? 'success' : roll < 49 ? 'failed' : 'expired';
        insertPayment.run(
          newId('pay'),
          account.id,
          100 + (i % 9_900),
          status,
          i % 3 === 0 ? 'orange_money' : 'mtn_momo',
          `2376${String(70_000_000 + (i % 9_999_999)).padStart(8, '0')}`,
          serviceId,
          `order-${i}`,
          status === 'failed' ? 'payer_declined' : null,
          randomUUID(),
          createdAt + 300_000,
          createdAt,
          createdAt + 3_000,
          createdAt + 3_000,
        );
      }
    });
    const logsBatch = db.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const roll = i % 100;
        const [method, path, status, errorCode] =
          roll < 60
            ? ['POST', '/v1/payments', 202, null]
            : roll < 95
              ? ['GET', '/v1/payments', 200, null]
              : roll < 99
                ? ['POST', '/v1/payments', 400, 'invalid_msisdn']
                : ['GET', '/v1/balance', 401, 'invalid_api_key'];
        insertLog.run(
          newId('log'),
          account.id,
          newId('req'),
          method,
          path,
          status,
          1 + (i % 97) / 10,
          key.id,
          errorCode,
          first + i * step,
        );
      }
    });
    for (let from = 0; from < rows; from += batch) {
      paymentsBatch.immediate(from, Math.min(rows, from + batch));
      logsBatch.immediate(from, Math.min(rows, from + batch));
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
    const midSeq = (table: string) => {
      const { lo, hi } = db
        .prepare(`SELECT MIN(seq) AS lo, MAX(seq) AS hi FROM ${table} WHERE account_id = ? AND mode = 'test'`)
        .get(account.id) as { lo: number; hi: number };
      return Math.floor((lo + hi) / 2);
    };
    return {
      accountId: account.id,
      serviceId,
      payments: rows,
      callLogs: rows,
      paymentsMidSeq: midSeq('payments'),
      callLogsMidSeq: midSeq('call_logs'),
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    db.close();
  }
}

/** Rows in a table (the server may be running: WAL lets a reader in beside it). */
export function countRows(path: string, table: 'payments' | 'call_logs'): number {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}
