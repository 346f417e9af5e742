import { readCamt054, type Statement, type StatementEntry } from '../operators/bank/camt054.js';
import { type Debtor, writePain001 } from '../operators/bank/pain001.js';
import type { BankBatchRow, BankStatementRow, Mode, PayoutRow } from '../storage/rows.js';
import type { Tx } from '../storage/store.js';
import { defineUnit } from '../storage/unit.js';
import type { Caller, Deps } from './context.js';
import { ApiError, notFound } from './errors.js';
import { newId } from './ids.js';
import { type Final, settlePayout } from './settlement.js';
import { type Answer, write } from './write.js';

/**
 * Bank payouts travel in batches (docs/decisions/0039-bank-payouts-in-files.md): the pending
 * ones of an account, mode and currency are gathered into a batch whose ISO 20022 pain.001
 * file is produced once, with it; the bank's camt.054 statements then settle each payout,
 * matched by its end-to-end id (the payout's id), through the same compare-and-set as every
 * other payout's outcome, so nothing is applied twice.
 */

/** The most payouts one file carries; the rest wait for the next batch. */
const batchMaxPayouts = 1000;

/** Bank payouts are in the CEMAC zone's currency (server/domain/payouts.ts). */
const bankCurrency = 'XAF';

/** A batch as it is shown: its row without the file, how many payouts wait, its statements. */
export interface BankBatch {
  batch: Omit<BankBatchRow, 'file'>;
  pendingCount: number;
  statements: BankStatementRow[];
}

interface BatchArgs {
  accountId: string;
  mode: Mode;
  currency: string;
  debtor: Debtor;
  now: number;
  /** The API asked for it: no payout to batch is its error, not an empty answer. */
  refuseEmpty: boolean;
}

/**
 * Puts the waiting payouts into a new batch, each by a compare-and-set (one batch per payout,
 * whoever batches at the same time), and produces the batch's file from exactly those.
 */
const batchWaiting = defineUnit(
  import.meta.url,
  'bank-batches.batch',
  async (tx, a: BatchArgs): Promise<BankBatch | null> => {
    const id = newId('bb');
    const waiting = await tx.bankBatches.unbatched(a.accountId, a.mode, a.currency, batchMaxPayouts);
    const payouts: PayoutRow[] = [];
    for (const payout of waiting) if (await tx.bankBatches.assign(payout.id, id)) payouts.push(payout);
    if (payouts.length === 0) {
      if (!a.refuseEmpty) return null;
      throw new ApiError(422, 'nothing_to_batch', 'No bank payout in this mode waits for a batch.');
    }
    const file = writePain001({
      messageId: id,
      createdAt: a.now,
      debtor: a.debtor,
      transfers: payouts.map((payout) => ({
        endToEndId: payout.id,
        amount: payout.amount,
        currency: payout.currency,
        iban: payout.recipient_iban as string,
        holderName: payout.recipient_name as string,
        bic: payout.recipient_bic,
        reference: payout.reference,
      })),
    });
    const { file: _file, ...batch } = await tx.bankBatches.insert({
      id,
      account_id: a.accountId,
      mode: a.mode,
      currency: a.currency,
      payout_count: payouts.length,
      control_sum: payouts.reduce((sum, payout) => sum + payout.amount, 0),
      file,
      created_at: a.now,
    });
    return { batch, pendingCount: payouts.length, statements: [] };
  },
);

function bankOf(deps: Deps, mode: Mode) {
  const bank = deps.banks[mode];
  if (!bank) throw new ApiError(422, 'nothing_to_batch', 'No bank is connected in this mode.');
  return bank;
}

/** Hands a new batch's file to its bank (a bank of files takes it at once: the merchant carries it). */
async function submit(deps: Deps, mode: Mode, batch: BankBatch): Promise<void> {
  const bank = bankOf(deps, mode);
  const file = await batchFile(deps, { accountId: batch.batch.account_id, mode }, batch.batch.id);
  const sent = await bank.submit({ id: batch.batch.id, file });
  if (sent.state !== 'accepted') {
    deps.logger.warn({ batch: batch.batch.id, outcome: sent.state }, 'the bank did not take a batch file');
  }
}

/** POST /bank-batches: the caller's waiting bank payouts, batched now. */
export async function createBankBatch(
  deps: Deps,
  caller: Caller,
  answer?: Answer<BankBatch | null>,
): Promise<BankBatch> {
  const args: BatchArgs = {
    accountId: caller.accountId,
    mode: caller.mode,
    currency: bankCurrency,
    debtor: bankOf(deps, caller.mode).debtor,
    now: deps.clock.now(),
    refuseEmpty: true,
  };
  const batch = (await write(deps, batchWaiting, args, answer)) as BankBatch;
  await submit(deps, caller.mode, batch);
  return batch;
}

/**
 * What the batch worker does each time: a batch for every account, mode and currency that has
 * bank payouts waiting. Answers how many batches it made, and whether more may wait.
 */
export async function batchAllWaiting(deps: Deps, limit = 50): Promise<{ batches: number; more: boolean }> {
  const waiting = await deps.store.read((tx) => tx.bankBatches.waiting(limit));
  let batches = 0;
  for (const { account_id, mode, currency } of waiting) {
    const bank = deps.banks[mode];
    if (!bank) continue;
    const args = { accountId: account_id, mode, currency, debtor: bank.debtor, now: deps.clock.now() };
    const batch = await write(deps, batchWaiting, { ...args, refuseEmpty: false });
    if (!batch) continue;
    batches += 1;
    await submit(deps, mode, batch);
  }
  return { batches, more: waiting.length >= limit };
}

async function viewOf(tx: Tx, row: BankBatchRow): Promise<BankBatch> {
  const { file: _file, ...batch } = row;
  const payouts = await tx.bankBatches.payoutsOf(row.id);
  return {
    batch,
    pendingCount: payouts.filter((payout) => payout.status === 'pending').length,
    statements: await tx.bankBatches.statements(row.id),
  };
}

type Owner = Pick<Caller, 'accountId' | 'mode'>;

/** What `read` makes of the caller's batch `id`, in one read; 404 when the caller has none. */
async function readBatch<T>(
  deps: Deps,
  caller: Owner,
  id: string,
  read: (tx: Tx, row: BankBatchRow) => Promise<T>,
): Promise<T> {
  const found = await deps.store.read(async (tx) => {
    const row = await tx.bankBatches.get(caller.accountId, caller.mode, id);
    return row ? { value: await read(tx, row) } : undefined;
  });
  if (!found) throw notFound('bank batch', id);
  return found.value;
}

export function getBankBatch(deps: Deps, caller: Owner, id: string): Promise<BankBatch> {
  return readBatch(deps, caller, id, viewOf);
}

export async function listBankBatches(
  deps: Deps,
  caller: Pick<Caller, 'accountId' | 'mode'>,
  limit: number,
): Promise<BankBatch[]> {
  return deps.store.read(async (tx) => {
    const rows = await tx.bankBatches.list(caller.accountId, caller.mode, limit);
    const views: BankBatch[] = [];
    for (const row of rows) views.push(await viewOf(tx, row));
    return views;
  });
}

/** The batch's pain.001 file, as it was produced. */
export function batchFile(deps: Deps, caller: Owner, id: string): Promise<string> {
  return readBatch(deps, caller, id, async (_tx, row) => row.file);
}

/** The payouts of one of the caller's batches. */
export function batchPayouts(deps: Deps, caller: Owner, id: string): Promise<PayoutRow[]> {
  return readBatch(deps, caller, id, (tx) => tx.bankBatches.payoutsOf(id));
}

/** The sandbox bank's camt.054 for a batch (test mode only: live mode has no such batch). */
export async function sandboxStatement(deps: Deps, caller: Owner, id: string): Promise<string> {
  const bank = deps.banks[caller.mode];
  if (caller.mode !== 'test' || !bank?.statementFor) throw notFound('bank batch', id);
  const { batch, payouts } = await readBatch(deps, caller, id, async (tx, row) => ({
    batch: row,
    payouts: await tx.bankBatches.payoutsOf(id),
  }));
  return bank.statementFor({
    id: batch.id,
    createdAt: batch.created_at,
    transfers: payouts.map((payout) => ({
      endToEndId: payout.id,
      amount: payout.amount,
      currency: payout.currency,
      iban: payout.recipient_iban as string,
    })),
  });
}

/** What one transaction of a statement did (POST /bank-batches/{id}/statements). */
interface StatementOutcome {
  endToEndId: string;
  outcome: 'applied' | 'already_applied' | 'conflicting' | 'unknown' | 'duplicate' | 'pending';
  payout: Pick<PayoutRow, 'id' | 'status' | 'failure_code'> | null;
}

export interface AppliedStatement {
  batchId: string;
  messageId: string;
  applied: number;
  entries: StatementOutcome[];
}

/** The payout failure code of a bank's return reason (ISO 20022 external return reason codes). */
function failureCodeOf(reason: string): string {
  if (reason === 'AC04') return 'bank_account_closed';
  if (reason === 'BE01') return 'bank_name_mismatch';
  return 'bank_rejected';
}

/** What a booked entry says of its payout, or why it says nothing that can be applied. */
function finalOf(entry: StatementEntry, payout: PayoutRow): Final | 'conflicting' {
  if (entry.amount !== null && entry.amount !== payout.amount) return 'conflicting';
  if (entry.returnReason !== null)
    return { status: 'failed', failureCode: failureCodeOf(entry.returnReason) };
  return { status: 'success' };
}

/** An outcome the payout already has: the same status, and for a failure the same code. */
const sameOutcome = (payout: PayoutRow, final: Final) =>
  payout.status === final.status && (final.status !== 'failed' || payout.failure_code === final.failureCode);

/**
 * Applies a statement's entries to the batch's payouts: a pending payout settles through
 * `settlePayout` (its ledger reversal and its events in this transaction), a settled one is
 * left as it is, and each entry says which it was.
 */
const applyStatement = defineUnit(
  import.meta.url,
  'bank-batches.apply-statement',
  async (
    tx,
    a: { accountId: string; mode: Mode; batchId: string; statement: Statement; now: number },
  ): Promise<AppliedStatement> => {
    const batch = await tx.bankBatches.get(a.accountId, a.mode, a.batchId);
    if (!batch) throw notFound('bank batch', a.batchId);
    const payouts = new Map((await tx.bankBatches.payoutsOf(batch.id)).map((row) => [row.id, row]));
    const seen = new Set<string>();
    const entries: StatementOutcome[] = [];
    let applied = 0;
    for (const entry of a.statement.entries) {
      const payout = payouts.get(entry.endToEndId);
      let outcome: StatementOutcome['outcome'];
      if (seen.has(entry.endToEndId)) outcome = 'duplicate';
      else if (!payout) outcome = 'unknown';
      else if (!entry.booked) outcome = 'pending';
      else outcome = await settle(tx, payout, entry, a.now);
      seen.add(entry.endToEndId);
      if (outcome === 'applied') {
        applied += 1;
        payouts.set(
          entry.endToEndId,
          (await tx.payouts.get(a.accountId, a.mode, entry.endToEndId)) as PayoutRow,
        );
      }
      const after = payouts.get(entry.endToEndId);
      entries.push({
        endToEndId: entry.endToEndId,
        outcome,
        payout: after ? { id: after.id, status: after.status, failure_code: after.failure_code } : null,
      });
    }
    const message = { batch_id: batch.id, message_id: a.statement.messageId, applied, received_at: a.now };
    await tx.bankBatches.recordStatement(message);
    return { batchId: batch.id, messageId: a.statement.messageId, applied, entries };
  },
);

/** One booked entry against its payout: settled now, already so, or in conflict with it. */
async function settle(
  tx: Tx,
  payout: PayoutRow,
  entry: StatementEntry,
  now: number,
): Promise<'applied' | 'already_applied' | 'conflicting'> {
  const final = finalOf(entry, payout);
  if (final === 'conflicting') return 'conflicting';
  if (payout.status !== 'pending') return sameOutcome(payout, final) ? 'already_applied' : 'conflicting';
  return (await settlePayout(tx, payout, final, now)) ? 'applied' : 'conflicting';
}

/** The largest statement accepted, in bytes (POST /bank-batches/{id}/statements). */
export const statementMaxBytes = 1024 * 1024;

/** POST /bank-batches/{id}/statements: the bank's camt.054 for one of the caller's batches. */
export async function uploadStatement(
  deps: Deps,
  caller: Caller,
  batchId: string,
  xml: string,
  answer?: Answer<AppliedStatement>,
): Promise<AppliedStatement> {
  const statement = readCamt054(xml);
  if (!statement) {
    throw new ApiError(
      422,
      'invalid_statement',
      'The body is not an ISO 20022 camt.054 document (a BkToCstmrDbtCdtNtfctn with its GrpHdr/MsgId).',
    );
  }
  const args = { accountId: caller.accountId, mode: caller.mode, batchId, statement, now: deps.clock.now() };
  return write(deps, applyStatement, args, answer);
}
