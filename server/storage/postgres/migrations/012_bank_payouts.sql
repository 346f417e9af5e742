-- Payouts to a bank account (docs/decisions/0039-bank-payouts-in-files.md): a third recipient
-- kind, the IBAN with the holder's name and the bank's BIC, and the batch (one pain.001 file)
-- each bank payout is in.
ALTER TABLE payouts
  ADD COLUMN recipient_iban TEXT,
  ADD COLUMN recipient_name TEXT,
  ADD COLUMN recipient_bic TEXT,
  ADD COLUMN bank_batch_id TEXT;
ALTER TABLE payouts DROP CONSTRAINT payouts_check;
ALTER TABLE payouts ADD CONSTRAINT payouts_one_recipient
  CHECK (num_nonnulls(recipient_msisdn, recipient_wallet_id, recipient_iban) = 1);
-- Bank payouts waiting for a batch, found by the batch worker and POST /bank-batches.
CREATE INDEX payouts_unbatched ON payouts(account_id, mode, seq)
  WHERE recipient_iban IS NOT NULL AND bank_batch_id IS NULL AND status = 'pending';
CREATE INDEX payouts_by_bank_batch ON payouts(bank_batch_id, seq) WHERE bank_batch_id IS NOT NULL;

-- A batch is its file: produced once, with the payouts it names, never changed.
CREATE TABLE bank_batches (
  seq           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id            TEXT NOT NULL UNIQUE,
  account_id    TEXT NOT NULL REFERENCES accounts(id),
  mode          TEXT NOT NULL,
  currency      TEXT NOT NULL,
  payout_count  BIGINT NOT NULL CHECK (payout_count > 0),
  control_sum   BIGINT NOT NULL CHECK (control_sum > 0),
  file          TEXT NOT NULL,
  created_at    BIGINT NOT NULL
);
CREATE INDEX bank_batches_by_account ON bank_batches(account_id, mode, seq);

-- The statements applied to a batch, once each by their MsgId.
CREATE TABLE bank_statements (
  seq          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  batch_id     TEXT NOT NULL REFERENCES bank_batches(id),
  message_id   TEXT NOT NULL,
  applied      BIGINT NOT NULL,
  received_at  BIGINT NOT NULL,
  UNIQUE (batch_id, message_id)
);
