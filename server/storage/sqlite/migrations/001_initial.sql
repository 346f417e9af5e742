-- Accounts, keys, money and events. Times are integer milliseconds since the epoch (UTC).
-- Every listable table has `seq`, a monotonic rowid used as the keyset-pagination cursor, and a
-- public random `id`.

CREATE TABLE accounts (
  id               TEXT PRIMARY KEY,
  name             TEXT NOT NULL,
  api_user         TEXT NOT NULL UNIQUE,
  default_currency TEXT NOT NULL,
  created_at       INTEGER NOT NULL
) STRICT;

CREATE TABLE api_keys (
  seq        INTEGER PRIMARY KEY,
  id         TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  mode       TEXT NOT NULL CHECK (mode IN ('live', 'test')),
  key_hash   BLOB NOT NULL UNIQUE,
  last4      TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER,           -- set when a rotation gives the key a grace period
  revoked_at INTEGER            -- set when the key stops working for good
) STRICT;
CREATE INDEX api_keys_by_account ON api_keys(account_id, mode, seq);

CREATE TABLE wallets (
  id         TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  mode       TEXT NOT NULL CHECK (mode IN ('live', 'test')),
  UNIQUE (account_id, mode)
) STRICT;

-- The Main Balance per wallet and currency. Only the ledger trigger below writes it.
CREATE TABLE balances (
  wallet_id TEXT NOT NULL REFERENCES wallets(id),
  currency  TEXT NOT NULL,
  available INTEGER NOT NULL CHECK (available >= 0),
  PRIMARY KEY (wallet_id, currency)
) STRICT;

-- Append-only ledger: every movement of money is one row; the balance is their sum.
CREATE TABLE ledger_entries (
  seq           INTEGER PRIMARY KEY,
  id            TEXT NOT NULL UNIQUE,
  wallet_id     TEXT NOT NULL REFERENCES wallets(id),
  currency      TEXT NOT NULL,
  type          TEXT NOT NULL CHECK (type IN ('payment', 'topup', 'payout', 'payout_reversal', 'transfer_in')),
  amount        INTEGER NOT NULL CHECK (amount <> 0),
  balance_after INTEGER NOT NULL CHECK (balance_after >= 0),
  source_id     TEXT NOT NULL,
  description   TEXT NOT NULL,
  created_at    INTEGER NOT NULL
) STRICT;
CREATE INDEX ledger_by_wallet ON ledger_entries(wallet_id, seq);
CREATE INDEX ledger_by_wallet_time ON ledger_entries(wallet_id, created_at);

-- The ledger row must continue the balance exactly; then the balance follows the ledger.
CREATE TRIGGER ledger_continues_balance BEFORE INSERT ON ledger_entries
WHEN NEW.balance_after <> COALESCE(
  (SELECT available FROM balances WHERE wallet_id = NEW.wallet_id AND currency = NEW.currency), 0) + NEW.amount
BEGIN
  SELECT RAISE(ABORT, 'ledger entry does not continue the balance');
END;

CREATE TRIGGER ledger_moves_balance AFTER INSERT ON ledger_entries
BEGIN
  INSERT INTO balances (wallet_id, currency, available)
  SELECT NEW.wallet_id, NEW.currency, 0
  WHERE NOT EXISTS (SELECT 1 FROM balances WHERE wallet_id = NEW.wallet_id AND currency = NEW.currency);
  UPDATE balances SET available = available + NEW.amount
  WHERE wallet_id = NEW.wallet_id AND currency = NEW.currency;
END;

CREATE TRIGGER ledger_is_append_only_update BEFORE UPDATE ON ledger_entries
BEGIN
  SELECT RAISE(ABORT, 'ledger entries are append-only');
END;

CREATE TRIGGER ledger_is_append_only_delete BEFORE DELETE ON ledger_entries
BEGIN
  SELECT RAISE(ABORT, 'ledger entries are append-only');
END;

CREATE TABLE services (
  seq         INTEGER PRIMARY KEY,
  id          TEXT NOT NULL UNIQUE,
  account_id  TEXT NOT NULL REFERENCES accounts(id),
  mode        TEXT NOT NULL,
  name        TEXT NOT NULL,
  description TEXT,
  type        TEXT NOT NULL,
  status      TEXT NOT NULL CHECK (status IN ('active', 'inactive', 'deleted')),
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL,
  deleted_at  INTEGER
) STRICT;
CREATE INDEX services_by_account ON services(account_id, mode, seq);

CREATE TABLE payments (
  seq             INTEGER PRIMARY KEY,
  id              TEXT NOT NULL UNIQUE,
  account_id      TEXT NOT NULL REFERENCES accounts(id),
  mode            TEXT NOT NULL,
  amount          INTEGER NOT NULL CHECK (amount > 0),
  currency        TEXT NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('initiated', 'success', 'failed', 'expired')),
  flow            TEXT NOT NULL CHECK (flow IN ('direct', 'hosted')),
  payment_method  TEXT,
  customer_msisdn TEXT,
  service_id      TEXT NOT NULL REFERENCES services(id),
  reference       TEXT,
  failure_code    TEXT,
  refunded_amount INTEGER NOT NULL DEFAULT 0 CHECK (refunded_amount >= 0 AND refunded_amount <= amount),
  checkout_token  TEXT UNIQUE,
  operator_ref    TEXT,
  next_check_at   INTEGER,
  expires_at      INTEGER NOT NULL,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL,
  completed_at    INTEGER
) STRICT;
CREATE INDEX payments_by_account ON payments(account_id, mode, seq);
CREATE INDEX payments_by_account_status ON payments(account_id, mode, status, seq);
CREATE INDEX payments_by_service ON payments(account_id, mode, service_id, seq);
CREATE INDEX payments_pending ON payments(next_check_at) WHERE status = 'initiated';
CREATE INDEX payments_expiring ON payments(expires_at) WHERE status = 'initiated';

CREATE TABLE payouts (
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
  CHECK ((recipient_msisdn IS NULL) <> (recipient_wallet_id IS NULL))
) STRICT;
CREATE INDEX payouts_by_account ON payouts(account_id, mode, seq);
CREATE INDEX payouts_by_account_status ON payouts(account_id, mode, status, seq);
CREATE INDEX payouts_by_bulk ON payouts(bulk_id, seq) WHERE bulk_id IS NOT NULL;
CREATE INDEX payouts_by_payment ON payouts(payment_id, seq) WHERE payment_id IS NOT NULL;
CREATE INDEX payouts_pending ON payouts(next_check_at) WHERE status = 'pending';

CREATE TABLE topups (
  seq            INTEGER PRIMARY KEY,
  id             TEXT NOT NULL UNIQUE,
  account_id     TEXT NOT NULL REFERENCES accounts(id),
  mode           TEXT NOT NULL,
  amount         INTEGER NOT NULL CHECK (amount > 0),
  currency       TEXT NOT NULL,
  status         TEXT NOT NULL CHECK (status IN ('initiated', 'success', 'failed', 'expired')),
  payer_msisdn   TEXT NOT NULL,
  payment_method TEXT NOT NULL,
  reference      TEXT,
  failure_code   TEXT,
  operator_ref   TEXT,
  next_check_at  INTEGER,
  expires_at     INTEGER NOT NULL,
  created_at     INTEGER NOT NULL,
  updated_at     INTEGER NOT NULL,
  completed_at   INTEGER
) STRICT;
CREATE INDEX topups_by_account ON topups(account_id, mode, seq);
CREATE INDEX topups_pending ON topups(next_check_at) WHERE status = 'initiated';
CREATE INDEX topups_expiring ON topups(expires_at) WHERE status = 'initiated';

-- Events are recorded in the same transaction as the state change they announce.
CREATE TABLE events (
  seq            INTEGER PRIMARY KEY,
  id             TEXT NOT NULL UNIQUE,
  account_id     TEXT NOT NULL REFERENCES accounts(id),
  mode           TEXT NOT NULL,
  event          TEXT NOT NULL,
  transaction_id TEXT NOT NULL,
  payload        TEXT NOT NULL,
  created_at     INTEGER NOT NULL
) STRICT;
CREATE INDEX events_by_account ON events(account_id, mode, seq);
CREATE INDEX events_by_transaction ON events(transaction_id, seq);

CREATE TABLE webhook_endpoints (
  seq         INTEGER PRIMARY KEY,
  id          TEXT NOT NULL UNIQUE,
  account_id  TEXT NOT NULL REFERENCES accounts(id),
  mode        TEXT NOT NULL,
  url         TEXT NOT NULL,
  events      TEXT,               -- JSON array of event names; NULL means all
  description TEXT,
  status      TEXT NOT NULL CHECK (status IN ('enabled', 'disabled')),
  secret      TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL,
  deleted_at  INTEGER
) STRICT;
CREATE INDEX webhook_endpoints_by_account ON webhook_endpoints(account_id, mode, seq);

-- The outbox: one row per event and endpoint, written with the event, sent by the worker.
CREATE TABLE webhook_deliveries (
  seq                  INTEGER PRIMARY KEY,
  id                   TEXT NOT NULL UNIQUE,
  event_id             TEXT NOT NULL REFERENCES events(id),
  endpoint_id          TEXT NOT NULL REFERENCES webhook_endpoints(id),
  status               TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts             INTEGER NOT NULL DEFAULT 0,
  next_attempt_at      INTEGER,
  locked_until         INTEGER,
  last_attempt_at      INTEGER,
  last_response_status INTEGER,
  last_error           TEXT,
  last_duration_ms     INTEGER,
  created_at           INTEGER NOT NULL
) STRICT;
CREATE INDEX webhook_deliveries_by_event ON webhook_deliveries(event_id, seq);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_attempt_at) WHERE status = 'pending';

CREATE TABLE webhook_attempts (
  seq             INTEGER PRIMARY KEY,
  delivery_id     TEXT NOT NULL REFERENCES webhook_deliveries(id),
  attempted_at    INTEGER NOT NULL,
  response_status INTEGER,
  duration_ms     INTEGER NOT NULL,
  error           TEXT
) STRICT;
CREATE INDEX webhook_attempts_by_delivery ON webhook_attempts(delivery_id, seq);

-- Stored responses of POSTs made with an Idempotency-Key, written in the same transaction as
-- the work they describe, so a retry can never repeat a movement.
CREATE TABLE idempotency_keys (
  account_id  TEXT NOT NULL,
  mode        TEXT NOT NULL,
  key         TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  status_code INTEGER NOT NULL,
  body        TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  PRIMARY KEY (account_id, mode, key)
) STRICT;
CREATE INDEX idempotency_keys_by_age ON idempotency_keys(created_at);

CREATE TABLE call_logs (
  seq         INTEGER PRIMARY KEY,
  id          TEXT NOT NULL UNIQUE,
  account_id  TEXT,
  mode        TEXT,
  request_id  TEXT NOT NULL,
  method      TEXT NOT NULL,
  path        TEXT NOT NULL,
  status      INTEGER NOT NULL,
  duration_ms REAL NOT NULL,
  key_id      TEXT,
  error_code  TEXT,
  created_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX call_logs_by_account ON call_logs(account_id, mode, seq);
CREATE INDEX call_logs_by_time ON call_logs(created_at);
CREATE INDEX call_logs_by_request ON call_logs(request_id);
