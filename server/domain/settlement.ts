import type { EventName } from '../../generated/openapi.js';
import { faultPoint } from '../operators/fault-points.js';
import type { OperatorKind, OperatorStatus } from '../operators/operator.js';
import type { Mode, PaymentRow, PayoutRow, TopupRow } from '../storage/rows.js';
import type { Tx } from '../storage/store.js';
import { defineUnit } from '../storage/unit.js';
import type { Deps } from './context.js';
import { recordEvent, type TransactionOutcome } from './events.js';
import { credit } from './ledger.js';
import { metadataOf } from './metadata.js';
import { takeCalledBack } from './operator-callbacks.js';
import { askOperator, type OperatorAsk, sendWindowMs } from './operator-requests.js';
import { nextStatusCheck } from './status-backoff.js';
import { write } from './write.js';

/**
 * Applies operator outcomes to pending payments, top-ups and payouts. Every transition is a
 * compare-and-set on the pending state inside one transaction with its ledger rows and its
 * event, so two workers (or two processes) can never apply the same outcome twice.
 */
export type Final = { status: 'success' } | { status: 'failed'; failureCode: string } | { status: 'expired' };

async function walletOf(tx: Tx, accountId: string, mode: Mode): Promise<string> {
  const wallet = await tx.accounts.wallet(accountId, mode);
  if (!wallet) throw new Error(`account ${accountId} has no ${mode} wallet`);
  return wallet.id;
}

function outcome(
  row: { id: string; amount: number; currency: string; reference: string | null; metadata: string | null },
  final: Final,
  links: { service_id: string | null; payment_id: string | null },
): TransactionOutcome {
  return {
    transaction_id: row.id,
    amount: row.amount,
    currency: row.currency,
    status: final.status,
    reference: row.reference,
    metadata: metadataOf(row.metadata),
    failure_code: final.status === 'failed' ? final.failureCode : null,
    ...links,
  };
}

/** A payment or top-up reaching its final state: success credits the balance; every end is an event. */
async function settleCollection(
  tx: Tx,
  kind: 'payment' | 'topup',
  row: PaymentRow | TopupRow,
  payer: string | null,
  final: Final,
  now: number,
): Promise<boolean> {
  const failureCode = final.status === 'failed' ? final.failureCode : null;
  const table = kind === 'payment' ? tx.payments : tx.topups;
  if (!(await table.finish(row.id, final.status, failureCode, now))) return false;
  if (final.status === 'success') {
    await credit(tx, {
      walletId: await walletOf(tx, row.account_id, row.mode),
      currency: row.currency,
      amount: row.amount,
      type: kind,
      sourceId: row.id,
      description: `${kind === 'payment' ? 'Payment' : 'Top-up'} from ${payer}`,
      now,
    });
  }
  const name = `${kind}.${final.status === 'success' ? 'completed' : final.status}` as EventName;
  const links = { service_id: kind === 'payment' ? (row as PaymentRow).service_id : null, payment_id: null };
  await recordEvent(tx, row.account_id, row.mode, name, outcome(row, final, links), now);
  return true;
}

function settlePayment(tx: Tx, payment: PaymentRow, final: Final, now: number): Promise<boolean> {
  return settleCollection(tx, 'payment', payment, payment.customer_msisdn, final, now);
}

export function settleTopup(tx: Tx, topup: TopupRow, final: Final, now: number): Promise<boolean> {
  return settleCollection(tx, 'topup', topup, topup.payer_msisdn, final, now);
}

/** A failed payout gives its amount back to the balance (and to its payment, for a refund). */
export async function settlePayout(tx: Tx, payout: PayoutRow, final: Final, now: number): Promise<boolean> {
  const status = final.status === 'success' ? 'success' : 'failed';
  const failureCode =
    final.status === 'failed' ? final.failureCode : final.status === 'expired' ? 'operator_timeout' : null;
  if (!(await tx.payouts.finish(payout.id, status, failureCode, now))) return false;
  if (status === 'failed') {
    await credit(tx, {
      walletId: await walletOf(tx, payout.account_id, payout.mode),
      currency: payout.currency,
      amount: payout.amount,
      type: 'payout_reversal',
      sourceId: payout.id,
      description: `Reversal of failed ${payout.payout_type} ${payout.id}`,
      now,
    });
    if (payout.payment_id) await tx.payments.addRefunded(payout.payment_id, -payout.amount, now);
  }
  const event = status === 'success' ? 'payout.completed' : 'payout.failed';
  // A refund names its payment and, through it, the payment's service.
  const refunded = payout.payment_id ? await tx.payments.byId(payout.payment_id) : undefined;
  const data = outcome(
    payout,
    status === 'success' ? final : { status: 'failed', failureCode: failureCode as string },
    { service_id: refunded?.service_id ?? null, payment_id: payout.payment_id },
  );
  await recordEvent(tx, payout.account_id, payout.mode, event, data, now);
  // A refund also gets its own event (docs/decisions/0016): refund.* is what to listen to;
  // payout.* for refunds stays so that existing subscribers keep receiving what they did.
  if (payout.payout_type === 'refund') {
    const refundEvent = status === 'success' ? 'refund.completed' : 'refund.failed';
    await recordEvent(tx, payout.account_id, payout.mode, refundEvent, data, now);
  }
  return true;
}

type SettledTable = 'payments' | 'topups' | 'payouts';

/**
 * Claims the due rows for this pass, each until its lease ends, unless another pass (or
 * instance) moved it since it was read; answers the ids won. Named, so SQLite runs it on its
 * writer thread (server/storage/unit.ts).
 */
const claimDue = defineUnit(
  import.meta.url,
  'settlement.claim',
  async (
    tx,
    a: { items: Array<{ table: SettledTable; id: string; next_check_at: number | null; until: number }> },
  ): Promise<string[]> => {
    const won: string[] = [];
    for (const item of a.items) {
      if (await tx[item.table].claim(item.id, item.next_check_at, item.until)) won.push(item.id);
    }
    return won;
  },
);

/**
 * Applies what the operator said of one row: its final outcome (with the ledger and its events),
 * or, while it is still pending, its next look at `recheckAt`. Answers whether it settled now.
 */
const applyOutcome = defineUnit(
  import.meta.url,
  'settlement.apply',
  async (
    tx,
    a: {
      table: SettledTable;
      row: PaymentRow | TopupRow | PayoutRow;
      final: Final | null;
      now: number;
      recheckAt: number;
    },
  ): Promise<boolean> => {
    if (!a.final) {
      await tx[a.table].recheckLater(a.row.id, a.recheckAt);
      return false;
    }
    if (a.table === 'payments') return settlePayment(tx, a.row as PaymentRow, a.final, a.now);
    if (a.table === 'topups') return settleTopup(tx, a.row as TopupRow, a.final, a.now);
    return settlePayout(tx, a.row as PayoutRow, a.final, a.now);
  },
);

/** Settles a movement its operator refused outright, at once, as its own unit of work. */
export function settleRefused(
  deps: Deps,
  table: SettledTable,
  row: PaymentRow | TopupRow | PayoutRow,
  failureCode: string,
): Promise<boolean> {
  const now = deps.clock.now();
  const final: Final = { status: 'failed', failureCode };
  return write(deps, applyOutcome, { table, row, final, now, recheckAt: now });
}

function finalFrom(status: OperatorStatus): Final | null {
  if (status.state === 'success') return { status: 'success' };
  if (status.state === 'failed') return { status: 'failed', failureCode: status.failureCode };
  if (status.state === 'expired') return { status: 'expired' };
  return null;
}

/** Status checks in flight at once in a settlement pass. */
const operatorConcurrency = 8;

/**
 * How long a settlement pass holds its claim on a live row, in operator timeouts: a status check,
 * and at worst the request sent again (token, request, a retry after a 401), each bounded by it.
 * A row claimed by an instance that crashed is looked at again once the claim ends (two minutes
 * with the default OPERATOR_TIMEOUT_MS of 15 s).
 */
const claimLeaseOperatorTimeouts = 8;

/**
 * The same for a sandbox movement: the sandbox operator answers in the process, at once, so a
 * claim left by a crashed instance is taken over within seconds.
 */
const sandboxClaimMs = 5_000;

interface Pending {
  id: string;
  next_check_at: number | null;
  operator_ref: string | null;
  operator_token: string | null;
  payment_method: string | null;
  amount: number;
  currency: string;
  expires_at: number;
}

/** What a settlement pass did: how many items reached a final state, and whether more are due. */
export interface SettlementPass {
  settled: number;
  /** A query filled its batch: the rows behind it are due too, so the next pass should not wait. */
  more: boolean;
}

/**
 * A pass whose items have all been looked at and whose outcomes are queued to the store, not
 * yet committed.
 */
interface StartedPass {
  more: boolean;
  /** The rows this pass claimed: their outcomes are on their way to the store. */
  claimed: ReadonlySet<string>;
  /** How many items reached a final state, once every outcome is committed. */
  settled: Promise<number>;
}

/**
 * What the settlement worker does each time it polls. A pass asks the operator about every due
 * item, applies final outcomes, expires what waited too long, and schedules the rest for another
 * look. Up to `passes` passes run back to back while each finds a full batch due, each one read,
 * claimed and asked about while the outcomes of the one before commit: a backlog costs one round
 * trip to the store per pass instead of two, the next pass's claim going in the same group commit
 * as the outcomes queued before it (docs/performance.md). At most
 * one pass is behind: a row it claimed is left out of the next (its expiry may still read as due
 * until its outcome commits), and a pass that is left nothing to claim waits for it.
 */
export async function settleBacklog(
  deps: Deps,
  options: {
    batchSize?: number;
    passes?: number;
    /** Asked before each pass after the first: false ends the backlog there (the worker stopping). */
    keepGoing?: () => boolean;
  } = {},
): Promise<SettlementPass> {
  const { batchSize = 100, passes = 10, keepGoing = () => true } = options;
  let settled = 0;
  let more = true;
  let behind: StartedPass | undefined;
  try {
    for (let i = 0; i < passes && more && (i === 0 || keepGoing()); i++) {
      const pass = await startPass(deps, batchSize, behind?.claimed ?? new Set());
      const before = behind;
      behind = pass;
      if (before) settled += await before.settled;
      more = pass.more;
    }
    if (behind) settled += await behind.settled;
  } catch (error) {
    // What the pass behind queued still commits or fails on its own; this error says what failed.
    await behind?.settled.catch(() => undefined);
    throw error;
  }
  return { settled, more };
}

/** A due movement as a pass looks at it. */
interface DueItem {
  kind: OperatorKind;
  table: SettledTable;
  row: Pending & { mode: Mode };
  msisdn: string | null;
  /** When its request was sent: a hosted payment's charge starts when the customer pays. */
  initiatedAt: number;
}

/** Reads, claims and asks about the due rows that are not in `behind`, and queues their outcomes. */
async function startPass(deps: Deps, batchSize: number, behind: ReadonlySet<string>): Promise<StartedPass> {
  const now = deps.clock.now();
  const sandboxRecheckAt = now + deps.config.settlementPollMs;
  const { items, more } = await readDue(deps, now, batchSize);
  // Several instances on one database (PostgreSQL) pass over the same due rows: each row is
  // claimed first, its next check moved past a lease that outlasts this pass's questions about
  // it, and only the instance that won the claim asks the operator. A crashed instance's claims
  // simply expire. (Applying an outcome stays a compare-and-set: a row settles once, whatever.)
  const open = items.filter((item) => !behind.has(item.row.id));
  if (open.length === 0) return { more, claimed: new Set(), settled: Promise.resolve(0) };
  const won = await claim(deps, open, now);
  const mine = open.filter((item) => won.has(item.row.id));
  // Each item is its own unit of work, but they are queued together, so the store commits them
  // in one batch instead of paying a disk sync per item.
  const applied: Array<Promise<boolean>> = [];
  // Live operators answer over the network, up to their deadline each: a few are asked at a
  // time, so one slow or unreachable operator cannot hold every other item for a whole pass.
  for (let start = 0; start < mine.length; start += operatorConcurrency) {
    await Promise.all(
      mine.slice(start, start + operatorConcurrency).map(async (item) => {
        const row = item.row as PaymentRow | TopupRow | PayoutRow;
        let final: Final | null;
        let recheckAt = sandboxRecheckAt;
        try {
          const seen = await look(deps, item, now);
          final = seen.final;
          if (item.row.mode === 'live') {
            recheckAt = nextStatusCheck({
              now,
              sentAt: item.initiatedAt,
              expiresAt: item.row.expires_at,
              pollMs: deps.config.settlementPollMs,
              retryAfterMs: seen.retryAfterMs,
            });
          }
        } catch (error) {
          // The claim is given back: the row is looked at again at the next pass, not after the lease.
          const giveBack = { table: item.table, row, final: null, now, recheckAt: sandboxRecheckAt };
          await write(deps, applyOutcome, giveBack).catch(() => undefined);
          throw error;
        }
        const unit = write(deps, applyOutcome, { table: item.table, row, final, now, recheckAt });
        // Its failure is reported by Promise.all below; until then it must not count as unhandled
        // (a batch can commit, or fail, while the next operator is still being asked).
        unit.catch(() => undefined);
        applied.push(unit);
      }),
    );
  }
  const settled = Promise.all(applied).then((done) => done.filter(Boolean).length);
  // Awaited later (settleBacklog): until then its failure must not count as unhandled.
  settled.catch(() => undefined);
  return { more, claimed: won, settled };
}

/** The due and expired movements, each once, and whether a query filled its batch. */
async function readDue(
  deps: Deps,
  now: number,
  batchSize: number,
): Promise<{ items: DueItem[]; more: boolean }> {
  // Those operators called back about first, whenever their next check was due (a callback says
  // the movement changed): server/domain/operator-callbacks.ts.
  const calledBack = takeCalledBack(deps);
  const { payments, topups, payouts, more } = await deps.store.read(async (tx) => {
    const byId = <T extends { id: string }>(rows: T[]) => [...new Map(rows.map((r) => [r.id, r])).values()];
    const batches = {
      calledBackPayments: await tx.payments.pendingAmong(calledBack.get('payments') ?? []),
      calledBackTopups: await tx.topups.pendingAmong(calledBack.get('topups') ?? []),
      calledBackPayouts: await tx.payouts.pendingAmong(calledBack.get('payouts') ?? []),
      duePayments: await tx.payments.due(now, batchSize),
      expiredPayments: await tx.payments.expired(now, batchSize),
      dueTopups: await tx.topups.due(now, batchSize),
      expiredTopups: await tx.topups.expired(now, batchSize),
      payouts: await tx.payouts.due(now, batchSize),
    };
    return {
      payments: byId([...batches.calledBackPayments, ...batches.duePayments, ...batches.expiredPayments]),
      topups: byId([...batches.calledBackTopups, ...batches.dueTopups, ...batches.expiredTopups]),
      payouts: byId([...batches.calledBackPayouts, ...batches.payouts]),
      more: [
        batches.duePayments,
        batches.expiredPayments,
        batches.dueTopups,
        batches.expiredTopups,
        batches.payouts,
      ].some((rows) => rows.length >= batchSize),
    };
  });
  const items: DueItem[] = [
    ...payments.map((p) => ({
      kind: 'collection' as const,
      table: 'payments' as const,
      row: p,
      msisdn: p.customer_msisdn,
      initiatedAt: p.updated_at,
    })),
    ...topups.map((t) => ({
      kind: 'collection' as const,
      table: 'topups' as const,
      row: t,
      msisdn: t.payer_msisdn,
      initiatedAt: t.created_at,
    })),
    ...payouts.map((p) => ({
      kind: 'disbursement' as const,
      table: 'payouts' as const,
      row: p,
      msisdn: p.recipient_msisdn,
      initiatedAt: p.created_at,
    })),
  ];
  return { items, more };
}

const compare = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/** Claims the items for this pass, each until its lease ends; answers the ids won. */
async function claim(deps: Deps, items: DueItem[], now: number): Promise<Set<string>> {
  const leaseUntil = (mode: Mode) =>
    now + (mode === 'test' ? sandboxClaimMs : claimLeaseOperatorTimeouts * deps.config.operatorTimeoutMs);
  // In one order, whichever order the pass read them in: two instances claiming the same rows
  // wait for each other, never in a circle (docs/decisions/0028).
  const claims = items
    .map(({ table, row }) => ({
      table,
      id: row.id,
      next_check_at: row.next_check_at,
      until: leaseUntil(row.mode),
    }))
    .sort((x, y) => (x.table === y.table ? compare(x.id, y.id) : compare(x.table, y.table)));
  return new Set(await write(deps, claimDue, { items: claims }));
}

/**
 * What the operator says of one item: its final outcome, or null while it is pending. An
 * operator that says it never got a request (MTN: 404 on its status) gets the same request
 * again, same reference: that is the only way a request is ever sent twice, and the operator
 * answers a reference it already has with 409 (accepted), so it never pays twice.
 */
async function look(
  deps: Deps,
  item: DueItem,
  now: number,
): Promise<{ final: Final | null; retryAfterMs?: number }> {
  const { kind, table, row, msisdn, initiatedAt } = item;
  if (row.operator_ref && msisdn) {
    const status = await deps.operators[row.mode].status(kind, {
      operatorRef: row.operator_ref,
      msisdn,
      initiatedAt,
      paymentMethod: row.payment_method,
      operatorToken: row.operator_token,
    });
    const final = finalFrom(status);
    if (final) {
      faultPoint('after_operator_status');
      return { final };
    }
    if (status.state === 'pending' && status.retryAfterMs !== undefined) {
      return {
        final: row.expires_at <= now ? { status: 'expired' } : null,
        retryAfterMs: status.retryAfterMs,
      };
    }
    // The first send may still be on its way (token, init, pay, one retry after a 401): only
    // once it must have ended is "never received" taken as the answer.
    const firstSendOver = now - initiatedAt >= sendWindowMs(deps);
    if (status.state === 'not_received' && firstSendOver && row.expires_at > now) {
      const ask: OperatorAsk = {
        transactionId: row.id,
        table,
        mode: row.mode,
        operatorRef: row.operator_ref,
        amount: row.amount,
        currency: row.currency,
        msisdn,
        paymentMethod: row.payment_method,
        operatorToken: row.operator_token,
      };
      const settle = (failureCode: string) =>
        settleRefused(deps, table, row as PaymentRow | TopupRow | PayoutRow, failureCode);
      const sent = await askOperator(deps, kind, ask, settle);
      if (sent.state === 'failed') return { final: null };
    }
  }
  return { final: row.expires_at <= now ? { status: 'expired' } : null };
}
