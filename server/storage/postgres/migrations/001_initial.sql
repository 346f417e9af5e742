-- PostgreSQL translation of sqlite/migrations/001_initial.sql: the same tables, columns, names,
-- checks, keys and indexes. Times are milliseconds since the epoch (UTC) in BIGINT, as are
-- amounts and counters; 0/1 flags stay integers.
-- Every listable table has `seq`, a monotonic identity used as the keyset-pagination cursor, and
-- a public random `id`. `seq` is GENERATED ALWAYS: only the database numbers rows (a copy from
-- SQLite keeps its numbers with INSERT ... OVERRIDING SYSTEM VALUE).

CREATE TABLE accounts (
  id               TEXT PRIMARY KEY,
  name             TEXT NOT NULL,
  api_user         TEXT NOT NULL UNIQUE,
  default_currency TEXT NOT NULL,
  created_at       BIGINT NOT NULL
);

CREATE TABLE api_keys (
  seq        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id         TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  mode       TEXT NOT NULL CHECK (mode IN ('live', 'test')),
  key_hash   BYTEA NOT NULL UNIQUE,
  last4      TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT,            -- set when a rotation gives the key a grace period
  revoked_at BIGINT             -- set when the key stops working for good
);
CREATE INDEX api_keys_by_account ON api_keys(account_id, mode, seq);

CREATE TABLE wallets (
  id         TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  mode       TEXT NOT NULL CHECK (mode IN ('live', 'test')),
  UNIQUE (account_id, mode)
);

-- The Main Balance per wallet and currency. Only the ledger triggers below write it.
CREATE TABLE balances (
  wallet_id TEXT NOT NULL REFERENCES wallets(id),
  currency  TEXT NOT NULL,
  available BIGINT NOT NULL CHECK (available >= 0),
  PRIMARY KEY (wallet_id, currency)
);

-- Append-only ledger: every movement of money is one row; the balance is their sum.
CREATE TABLE ledger_entries (
  seq           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id            TEXT NOT NULL UNIQUE,
  wallet_id     TEXT NOT NULL REFERENCES wallets(id),
  currency      TEXT NOT NULL,
  type          TEXT NOT NULL CHECK (type IN ('payment', 'topup', 'payout', 'payout_reversal', 'transfer_in')),
  amount        BIGINT NOT NULL CHECK (amount <> 0),
  balance_after BIGINT NOT NULL CHECK (balance_after >= 0),
  source_id     TEXT NOT NULL,
  description   TEXT NOT NULL,
  created_at    BIGINT NOT NULL
);
CREATE INDEX ledger_by_wallet ON ledger_entries(wallet_id, seq);
CREATE INDEX ledger_by_wallet_time ON ledger_entries(wallet_id, created_at);

-- The ledger row must continue the balance exactly; then the balance follows the ledger.
-- SQLite runs one writer at a time; here two transactions may append to the same wallet at once,
-- so the check first makes sure the balance row exists and locks it: whoever comes second waits,
-- then (READ COMMITTED) reads the balance the first one left, or (REPEATABLE READ, SERIALIZABLE)
-- fails with a serialization error and is retried. Either way no entry is checked against a
-- stale balance. An entry that is refused aborts its statement, the balance row with it.
CREATE FUNCTION ledger_continues_balance() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  current_available BIGINT;
BEGIN
  INSERT INTO balances (wallet_id, currency, available)
  VALUES (NEW.wallet_id, NEW.currency, 0)
  ON CONFLICT (wallet_id, currency) DO NOTHING;
  SELECT available INTO current_available FROM balances
  WHERE wallet_id = NEW.wallet_id AND currency = NEW.currency
  FOR UPDATE;
  IF NEW.balance_after <> COALESCE(current_available, 0) + NEW.amount THEN
    RAISE EXCEPTION 'ledger entry does not continue the balance' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER ledger_continues_balance BEFORE INSERT ON ledger_entries
FOR EACH ROW EXECUTE FUNCTION ledger_continues_balance();

CREATE FUNCTION ledger_moves_balance() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO balances (wallet_id, currency, available)
  VALUES (NEW.wallet_id, NEW.currency, 0)
  ON CONFLICT (wallet_id, currency) DO NOTHING;
  UPDATE balances SET available = available + NEW.amount
  WHERE wallet_id = NEW.wallet_id AND currency = NEW.currency;
  RETURN NULL;
END;
$$;
CREATE TRIGGER ledger_moves_balance AFTER INSERT ON ledger_entries
FOR EACH ROW EXECUTE FUNCTION ledger_moves_balance();

CREATE FUNCTION ledger_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger entries are append-only' USING ERRCODE = 'restrict_violation';
END;
$$;
CREATE TRIGGER ledger_is_append_only_update BEFORE UPDATE ON ledger_entries
FOR EACH ROW EXECUTE FUNCTION ledger_is_append_only();
CREATE TRIGGER ledger_is_append_only_delete BEFORE DELETE ON ledger_entries
FOR EACH ROW EXECUTE FUNCTION ledger_is_append_only();
-- SQLite has no TRUNCATE; here it would bypass the row triggers, so it is refused as well.
CREATE TRIGGER ledger_is_append_only_truncate BEFORE TRUNCATE ON ledger_entries
FOR EACH STATEMENT EXECUTE FUNCTION ledger_is_append_only();

CREATE TABLE services (
  seq         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id          TEXT NOT NULL UNIQUE,
  account_id  TEXT NOT NULL REFERENCES accounts(id),
  mode        TEXT NOT NULL,
  name        TEXT NOT NULL,
  description TEXT,
  type        TEXT NOT NULL,
  status      TEXT NOT NULL CHECK (status IN ('active', 'inactive', 'deleted')),
  created_at  BIGINT NOT NULL,
  updated_at  BIGINT NOT NULL,
  deleted_at  BIGINT
);
CREATE INDEX services_by_account ON services(account_id, mode, seq);

CREATE TABLE payments (
  seq             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id              TEXT NOT NULL UNIQUE,
  account_id      TEXT NOT NULL REFERENCES accounts(id),
  mode            TEXT NOT NULL,
  amount          BIGINT NOT NULL CHECK (amount > 0),
  currency        TEXT NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('initiated', 'success', 'failed', 'expired')),
  flow            TEXT NOT NULL CHECK (flow IN ('direct', 'hosted')),
  payment_method  TEXT,
  customer_msisdn TEXT,
  service_id      TEXT NOT NULL REFERENCES services(id),
  reference       TEXT,
  failure_code    TEXT,
  refunded_amount BIGINT NOT NULL DEFAULT 0 CHECK (refunded_amount >= 0 AND refunded_amount <= amount),
  checkout_token  TEXT UNIQUE,
  operator_ref    TEXT,
  next_check_at   BIGINT,
  expires_at      BIGINT NOT NULL,
  created_at      BIGINT NOT NULL,
  updated_at      BIGINT NOT NULL,
  completed_at    BIGINT
);
CREATE INDEX payments_by_account ON payments(account_id, mode, seq);
CREATE INDEX payments_by_account_status ON payments(account_id, mode, status, seq);
CREATE INDEX payments_by_service ON payments(account_id, mode, service_id, seq);
CREATE INDEX payments_pending ON payments(next_check_at) WHERE status = 'initiated';
CREATE INDEX payments_expiring ON payments(expires_at) WHERE status = 'initiated';

CREATE TABLE payouts (
  seq                 BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id                  TEXT NOT NULL UNIQUE,
  account_id          TEXT NOT NULL REFERENCES accounts(id),
  mode                TEXT NOT NULL,
  amount              BIGINT NOT NULL CHECK (amount > 0),
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
  next_check_at       BIGINT,
  expires_at          BIGINT NOT NULL,
  created_at          BIGINT NOT NULL,
  updated_at          BIGINT NOT NULL,
  completed_at        BIGINT,
  CHECK ((recipient_msisdn IS NULL) <> (recipient_wallet_id IS NULL))
);
CREATE INDEX payouts_by_account ON payouts(account_id, mode, seq);
CREATE INDEX payouts_by_account_status ON payouts(account_id, mode, status, seq);
CREATE INDEX payouts_by_bulk ON payouts(bulk_id, seq) WHERE bulk_id IS NOT NULL;
CREATE INDEX payouts_by_payment ON payouts(payment_id, seq) WHERE payment_id IS NOT NULL;
CREATE INDEX payouts_pending ON payouts(next_check_at) WHERE status = 'pending';

CREATE TABLE topups (
  seq            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id             TEXT NOT NULL UNIQUE,
  account_id     TEXT NOT NULL REFERENCES accounts(id),
  mode           TEXT NOT NULL,
  amount         BIGINT NOT NULL CHECK (amount > 0),
  currency       TEXT NOT NULL,
  status         TEXT NOT NULL CHECK (status IN ('initiated', 'success', 'failed', 'expired')),
  payer_msisdn   TEXT NOT NULL,
  payment_method TEXT NOT NULL,
  reference      TEXT,
  failure_code   TEXT,
  operator_ref   TEXT,
  next_check_at  BIGINT,
  expires_at     BIGINT NOT NULL,
  created_at     BIGINT NOT NULL,
  updated_at     BIGINT NOT NULL,
  completed_at   BIGINT
);
CREATE INDEX topups_by_account ON topups(account_id, mode, seq);
CREATE INDEX topups_pending ON topups(next_check_at) WHERE status = 'initiated';
CREATE INDEX topups_expiring ON topups(expires_at) WHERE status = 'initiated';

-- Events are recorded in the same transaction as the state change they announce.
CREATE TABLE events (
  seq            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id             TEXT NOT NULL UNIQUE,
  account_id     TEXT NOT NULL REFERENCES accounts(id),
  mode           TEXT NOT NULL,
  event          TEXT NOT NULL,
  transaction_id TEXT NOT NULL,
  payload        TEXT NOT NULL,
  created_at     BIGINT NOT NULL
);
CREATE INDEX events_by_account ON events(account_id, mode, seq);
CREATE INDEX events_by_transaction ON events(transaction_id, seq);

CREATE TABLE webhook_endpoints (
  seq         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id          TEXT NOT NULL UNIQUE,
  account_id  TEXT NOT NULL REFERENCES accounts(id),
  mode        TEXT NOT NULL,
  url         TEXT NOT NULL,
  events      TEXT,               -- JSON array of event names; NULL means all
  description TEXT,
  status      TEXT NOT NULL CHECK (status IN ('enabled', 'disabled')),
  secret      TEXT NOT NULL,
  created_at  BIGINT NOT NULL,
  updated_at  BIGINT NOT NULL,
  deleted_at  BIGINT
);
CREATE INDEX webhook_endpoints_by_account ON webhook_endpoints(account_id, mode, seq);

-- The outbox: one row per event and endpoint, written with the event, sent by the worker.
CREATE TABLE webhook_deliveries (
  seq                  BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id                   TEXT NOT NULL UNIQUE,
  event_id             TEXT NOT NULL REFERENCES events(id),
  endpoint_id          TEXT NOT NULL REFERENCES webhook_endpoints(id),
  status               TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts             BIGINT NOT NULL DEFAULT 0,
  next_attempt_at      BIGINT,
  locked_until         BIGINT,
  last_attempt_at      BIGINT,
  last_response_status INTEGER,
  last_error           TEXT,
  last_duration_ms     BIGINT,
  created_at           BIGINT NOT NULL
);
CREATE INDEX webhook_deliveries_by_event ON webhook_deliveries(event_id, seq);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_attempt_at) WHERE status = 'pending';

CREATE TABLE webhook_attempts (
  seq             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  delivery_id     TEXT NOT NULL REFERENCES webhook_deliveries(id),
  attempted_at    BIGINT NOT NULL,
  response_status INTEGER,
  duration_ms     BIGINT NOT NULL,
  error           TEXT
);
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
  created_at  BIGINT NOT NULL,
  PRIMARY KEY (account_id, mode, key)
);
CREATE INDEX idempotency_keys_by_age ON idempotency_keys(created_at);

CREATE TABLE call_logs (
  seq         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id          TEXT NOT NULL UNIQUE,
  account_id  TEXT,
  mode        TEXT,
  request_id  TEXT NOT NULL,
  method      TEXT NOT NULL,
  path        TEXT NOT NULL,
  status      INTEGER NOT NULL,
  duration_ms DOUBLE PRECISION NOT NULL,
  key_id      TEXT,
  error_code  TEXT,
  created_at  BIGINT NOT NULL
);
CREATE INDEX call_logs_by_account ON call_logs(account_id, mode, seq);
CREATE INDEX call_logs_by_time ON call_logs(created_at);
CREATE INDEX call_logs_by_request ON call_logs(request_id);
