-- Payouts to a bank account (docs/decisions/0039-bank-payouts-in-files.md): a third recipient
-- kind, the IBAN with the holder's name and the bank's BIC, and the batch (one pain.001 file)
-- each bank payout is in. SQLite cannot change a table's CHECK, so the table is built again
-- with "exactly one recipient" over three columns, its rows copied in order, its indexes made
-- again. No table refers to payouts, so the foreign keys are undisturbed.
CREATE TABLE payouts_next (
  seq                 INTEGER PRIMARY KEY,
  id                  TEXT NOT NULL UNIQUE,
  account_id          TEXT NOT NULL REFERENCES accounts(id),
  mode                TEXT NOT NULL,
  amount              INTEGER NOT NULL CHECK (amount > 0),
  currency            TEXT NOT NULL,
  status              TEXT NOT NULL CHECK (status IN ('pending', 'success', 'failed')),
  payout_type         TEXT NOT NULL CHECK (payout_type IN ('withdrawal', 'transfer', 'refund')),
  recipient_msisdn    TEXT,
  recipient_wallet_id TEXT,
  payment_id          TEXT REFERENCES payments(id),
  bulk_id             TEXT,
  reference           TEXT,
  failure_code        TEXT,
  operator_ref        TEXT,
  next_check_at       INTEGER,
  expires_at          INTEGER NOT NULL,
  created_at          INTEGER NOT NULL,
  updated_at          INTEGER NOT NULL,
  completed_at        INTEGER,
  payment_method      TEXT,
  operator_token      TEXT,
  recipient_iban      TEXT,
  recipient_name      TEXT,
  recipient_bic       TEXT,
  bank_batch_id       TEXT,
  CHECK ((recipient_msisdn IS NOT NULL) + (recipient_wallet_id IS NOT NULL) + (recipient_iban IS NOT NULL) = 1)
) STRICT;
INSERT INTO payouts_next (seq, id, account_id, mode, amount, currency, status, payout_type,
    recipient_msisdn, recipient_wallet_id, payment_id, bulk_id, reference, failure_code,
    operator_ref, next_check_at, expires_at, created_at, updated_at, completed_at,
    payment_method, operator_token)
  SELECT seq, id, account_id, mode, amount, currency, status, payout_type,
    recipient_msisdn, recipient_wallet_id, payment_id, bulk_id, reference, failure_code,
    operator_ref, next_check_at, expires_at, created_at, updated_at, completed_at,
    payment_method, operator_token
  FROM payouts ORDER BY seq;
DROP TABLE payouts;
ALTER TABLE payouts_next RENAME TO payouts;
CREATE INDEX payouts_by_account ON payouts(account_id, mode, seq);
CREATE INDEX payouts_by_account_status ON payouts(account_id, mode, status, seq);
CREATE INDEX payouts_by_bulk ON payouts(bulk_id, seq) WHERE bulk_id IS NOT NULL;
CREATE INDEX payouts_by_payment ON payouts(payment_id, seq) WHERE payment_id IS NOT NULL;
CREATE INDEX payouts_pending ON payouts(next_check_at) WHERE status = 'pending';
-- Bank payouts waiting for a batch, found by the batch worker and POST /bank-batches.
CREATE INDEX payouts_unbatched ON payouts(account_id, mode, seq)
  WHERE recipient_iban IS NOT NULL AND bank_batch_id IS NULL AND status = 'pending';
CREATE INDEX payouts_by_bank_batch ON payouts(bank_batch_id, seq) WHERE bank_batch_id IS NOT NULL;

-- A batch is its file: produced once, with the payouts it names, never changed.
CREATE TABLE bank_batches (
  seq           INTEGER PRIMARY KEY,
  id            TEXT NOT NULL UNIQUE,
  account_id    TEXT NOT NULL REFERENCES accounts(id),
  mode          TEXT NOT NULL,
  currency      TEXT NOT NULL,
  payout_count  INTEGER NOT NULL CHECK (payout_count > 0),
  control_sum   INTEGER NOT NULL CHECK (control_sum > 0),
  file          TEXT NOT NULL,
  created_at    INTEGER NOT NULL
) STRICT;
CREATE INDEX bank_batches_by_account ON bank_batches(account_id, mode, seq);

-- The statements applied to a batch, once each by their MsgId.
CREATE TABLE bank_statements (
  seq          INTEGER PRIMARY KEY,
  batch_id     TEXT NOT NULL REFERENCES bank_batches(id),
  message_id   TEXT NOT NULL,
  applied      INTEGER NOT NULL,
  received_at  INTEGER NOT NULL,
  UNIQUE (batch_id, message_id)
) STRICT;
