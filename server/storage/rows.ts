/** Rows as stored: snake_case columns, times in epoch milliseconds, JSON as text. */

export type Mode = 'live' | 'test';

/**
 * The columns of `Row` a list reads, named in its SELECT: a list shows rows as the contract
 * does, so it leaves out what only the server uses (the account, which is the caller's own; the
 * operator's reference and sealed token; the next status check). Reading them was a large part of
 * a page's time (docs/performance.md), and a list never holds an operator's token.
 */
function listedColumns<Row>() {
  return <const Columns extends ReadonlyArray<keyof Row & string>>(...columns: Columns) => columns;
}

export interface AccountRow {
  id: string;
  name: string;
  api_user: string;
  default_currency: string;
  /** IANA zone the dashboard shows times in (`Africa/Douala` unless chosen). */
  time_zone: string;
  /** 1 when every owner must sign in with a second step (decision 0045). */
  owners_need_two_step: number;
  created_at: number;
}

/** An account as first written: its settings take their defaults. */
export type NewAccountRow = Omit<AccountRow, 'owners_need_two_step'>;

export interface ApiKeyRow {
  seq: number;
  id: string;
  account_id: string;
  mode: Mode;
  key_hash: Buffer;
  last4: string;
  /** What the key may do (docs/decisions/0030-key-roles.md); `full` for keys older than roles. */
  role: KeyRole;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
}

export type KeyRole = 'full' | 'collect' | 'read_only';

export interface WalletRow {
  id: string;
  account_id: string;
  mode: Mode;
}

export interface BalanceRow {
  currency: string;
  available: number;
}

export type LedgerType = 'payment' | 'topup' | 'payout' | 'payout_reversal' | 'transfer_in';

export interface LedgerRow {
  seq: number;
  id: string;
  wallet_id: string;
  currency: string;
  type: LedgerType;
  amount: number;
  balance_after: number;
  source_id: string;
  description: string;
  created_at: number;
}

export interface ServiceRow {
  seq: number;
  id: string;
  account_id: string;
  mode: Mode;
  name: string;
  description: string | null;
  type: string;
  status: 'active' | 'inactive' | 'deleted';
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

export interface PaymentRow {
  seq: number;
  id: string;
  account_id: string;
  mode: Mode;
  amount: number;
  currency: string;
  status: 'initiated' | 'success' | 'failed' | 'expired';
  flow: 'direct' | 'hosted';
  payment_method: string | null;
  customer_msisdn: string | null;
  service_id: string;
  reference: string | null;
  /** The merchant's key-value pairs as JSON text, or null when none were given (answered as {}). */
  metadata: string | null;
  failure_code: string | null;
  refunded_amount: number;
  checkout_token: string | null;
  operator_ref: string | null;
  /** A token the operator gave for the request (Orange Money's payToken). */
  operator_token: string | null;
  next_check_at: number | null;
  expires_at: number;
  created_at: number;
  updated_at: number;
  completed_at: number | null;
  /** Hosted payments: where the checkout page links back to once the payment is final. */
  return_url: string | null;
}

/** What a listed payment, payout and top-up all show: who and how much, then when. */
const movementColumns = ['seq', 'id', 'mode', 'amount', 'currency', 'status'] as const;
const movementTimes = ['created_at', 'updated_at', 'completed_at'] as const;

export const listedPaymentColumns = listedColumns<PaymentRow>()(
  ...movementColumns,
  'flow',
  'payment_method',
  'customer_msisdn',
  'service_id',
  'reference',
  'metadata',
  'failure_code',
  'refunded_amount',
  'checkout_token',
  'expires_at',
  ...movementTimes,
  'return_url',
);
/** A payment as a list reads it. */
export type ListedPaymentRow = Pick<PaymentRow, (typeof listedPaymentColumns)[number]>;

export interface PayoutRow {
  seq: number;
  id: string;
  account_id: string;
  mode: Mode;
  amount: number;
  currency: string;
  status: 'pending' | 'success' | 'failed';
  payout_type: 'withdrawal' | 'transfer' | 'refund';
  recipient_msisdn: string | null;
  recipient_wallet_id: string | null;
  /** A bank payout's account (server/operators/bank/bank-account.ts), its holder and bank. */
  recipient_iban: string | null;
  recipient_name: string | null;
  recipient_bic: string | null;
  /** The batch (one pain.001 file) a bank payout is in, once batched. */
  bank_batch_id: string | null;
  /** The operator a payout to a number was routed to; null for wallet transfers (and old rows). */
  payment_method: string | null;
  payment_id: string | null;
  bulk_id: string | null;
  reference: string | null;
  /** The merchant's key-value pairs as JSON text, or null when none were given (answered as {}). */
  metadata: string | null;
  failure_code: string | null;
  operator_ref: string | null;
  /** A token the operator gave for the request (Orange Money's payToken). */
  operator_token: string | null;
  next_check_at: number | null;
  expires_at: number;
  created_at: number;
  updated_at: number;
  completed_at: number | null;
}

export const listedPayoutColumns = listedColumns<PayoutRow>()(
  ...movementColumns,
  'payout_type',
  'recipient_msisdn',
  'recipient_wallet_id',
  'recipient_iban',
  'recipient_name',
  'recipient_bic',
  'bank_batch_id',
  'payment_method',
  'payment_id',
  'bulk_id',
  'reference',
  'metadata',
  'failure_code',
  ...movementTimes,
);
/** A payout as a list reads it. */
export type ListedPayoutRow = Pick<PayoutRow, (typeof listedPayoutColumns)[number]>;

/** Bank payouts gathered into one ISO 20022 pain.001 file, produced once. */
export interface BankBatchRow {
  seq: number;
  id: string;
  account_id: string;
  mode: Mode;
  currency: string;
  payout_count: number;
  control_sum: number;
  file: string;
  created_at: number;
}

/** A bank statement applied to a batch, once by its MsgId. */
export interface BankStatementRow {
  seq: number;
  batch_id: string;
  message_id: string;
  applied: number;
  received_at: number;
}

export interface TopupRow {
  seq: number;
  id: string;
  account_id: string;
  mode: Mode;
  amount: number;
  currency: string;
  status: 'initiated' | 'success' | 'failed' | 'expired';
  payer_msisdn: string;
  payment_method: string;
  reference: string | null;
  /** The merchant's key-value pairs as JSON text, or null when none were given (answered as {}). */
  metadata: string | null;
  failure_code: string | null;
  operator_ref: string | null;
  /** A token the operator gave for the request (Orange Money's payToken). */
  operator_token: string | null;
  next_check_at: number | null;
  expires_at: number;
  created_at: number;
  updated_at: number;
  completed_at: number | null;
}

export const listedTopupColumns = listedColumns<TopupRow>()(
  ...movementColumns,
  'payer_msisdn',
  'payment_method',
  'reference',
  'metadata',
  'failure_code',
  'expires_at',
  ...movementTimes,
);
/** A top-up as a list reads it. */
export type ListedTopupRow = Pick<TopupRow, (typeof listedTopupColumns)[number]>;

export interface EventRow {
  seq: number;
  id: string;
  account_id: string;
  mode: Mode;
  event: string;
  transaction_id: string;
  payload: string;
  created_at: number;
}

export interface WebhookEndpointRow {
  seq: number;
  id: string;
  account_id: string;
  mode: Mode;
  url: string;
  events: string | null;
  description: string | null;
  status: 'enabled' | 'disabled';
  secret: string;
  /** The secret before the last rotation, still signing until `previous_secret_expires_at`. */
  previous_secret: string | null;
  previous_secret_expires_at: number | null;
  /** Failed attempts in a row (circuit breaker). */
  consecutive_failures: number;
  /** Until when deliveries to this endpoint are paused (circuit open), or `null`. */
  paused_until: number | null;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

export interface DeliveryRow {
  seq: number;
  id: string;
  event_id: string;
  endpoint_id: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  next_attempt_at: number | null;
  locked_until: number | null;
  last_attempt_at: number | null;
  last_response_status: number | null;
  last_error: string | null;
  last_duration_ms: number | null;
  created_at: number;
}

export interface IdempotencyRow {
  fingerprint: string;
  status_code: number;
  body: string;
  created_at: number;
}

export interface CallLogRow {
  seq: number;
  id: string;
  account_id: string | null;
  mode: Mode | null;
  request_id: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  key_id: string | null;
  error_code: string | null;
  created_at: number;
  /** The dashboard user who took the action; null for API calls. */
  user_id: string | null;
}

export interface AttemptRow {
  seq: number;
  delivery_id: string;
  attempted_at: number;
  response_status: number | null;
  duration_ms: number;
  error: string | null;
}

export type DashboardRole = 'owner' | 'developer' | 'viewer';

export interface DashboardUserRow {
  seq: number;
  id: string;
  account_id: string;
  email: string;
  role: DashboardRole;
  password_hash: Buffer | null;
  password_salt: Buffer | null;
  created_at: number;
  invited_by: string | null;
  /** The sealed TOTP secret; null until two-step sign-in is on. Opened only by `twoStepSecret`. */
  totp_secret: string | null;
  totp_enabled_at: number | null;
  /** The last time step whose code was accepted: no code is accepted twice. */
  totp_last_step: number | null;
}

/** A dashboard user as first written: no second step yet. */
export type NewDashboardUserRow = Omit<
  DashboardUserRow,
  'seq' | 'totp_secret' | 'totp_enabled_at' | 'totp_last_step'
>;

export interface DashboardSessionRow {
  token_hash: Buffer;
  user_id: string;
  csrf_token: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  revoked_at: number | null;
  flash: string | null;
}

export interface DashboardLinkRow {
  token_hash: Buffer;
  user_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  /** An invitation sets a first password and signs in; a reset sets a new one and signs out. */
  purpose: DashboardLinkPurpose;
}

export type DashboardLinkPurpose = 'invitation' | 'reset';

/** Between a right password and the second step (decision 0045). */
export interface DashboardChallengeRow {
  token_hash: Buffer;
  user_id: string;
  /** `code`: the user types their code; `enrol`: an owner who must, turns two-step sign-in on. */
  kind: 'code' | 'enrol';
  /** For `enrol`, the secret the user is shown (opened); null otherwise. */
  pending_secret: string | null;
  /** The dashboard page to land on afterwards. */
  next: string | null;
  failures: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}
