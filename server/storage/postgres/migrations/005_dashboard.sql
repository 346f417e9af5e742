-- The merchant dashboard: its users, their server-side sessions, one-time links (invitations
-- and set-password links), sign-in attempts, and who did what in the call log.
-- PostgreSQL translation of sqlite/migrations/005_dashboard.sql. SQLite's WITHOUT ROWID (a table
-- stored in its primary key's order) has no counterpart and no bearing on behaviour: dropped.

CREATE TABLE dashboard_users (
  seq           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id            TEXT NOT NULL UNIQUE,
  account_id    TEXT NOT NULL REFERENCES accounts(id),
  email         TEXT NOT NULL UNIQUE,          -- lower-cased; one account per email address
  role          TEXT NOT NULL CHECK (role IN ('owner', 'developer', 'viewer')),
  password_hash BYTEA,                         -- scrypt; NULL until the user sets a password
  password_salt BYTEA,
  created_at    BIGINT NOT NULL,
  invited_by    TEXT
);
CREATE INDEX dashboard_users_by_account ON dashboard_users(account_id, seq);

-- The cookie holds a random token; only its SHA-256 is stored, so a copy of the database
-- does not hold usable sessions.
CREATE TABLE dashboard_sessions (
  token_hash   BYTEA PRIMARY KEY,
  user_id      TEXT NOT NULL REFERENCES dashboard_users(id),
  csrf_token   TEXT NOT NULL,
  created_at   BIGINT NOT NULL,
  last_seen_at BIGINT NOT NULL,
  expires_at   BIGINT NOT NULL,                -- absolute end, whatever the activity
  revoked_at   BIGINT,
  flash        TEXT
);
CREATE INDEX dashboard_sessions_by_user ON dashboard_sessions(user_id);

-- One-time links: an invitation or a set-password link printed by the admin CLI.
CREATE TABLE dashboard_links (
  token_hash BYTEA PRIMARY KEY,
  user_id    TEXT NOT NULL REFERENCES dashboard_users(id),
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at    BIGINT
);

-- Every sign-in attempt, kept 30 days for the rate limit and for whoever investigates an attack.
CREATE TABLE dashboard_sign_ins (
  seq        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email      TEXT NOT NULL,
  client     TEXT NOT NULL,
  succeeded  INTEGER NOT NULL CHECK (succeeded IN (0, 1)),
  created_at BIGINT NOT NULL
);
CREATE INDEX dashboard_sign_ins_by_email ON dashboard_sign_ins(email, created_at);
CREATE INDEX dashboard_sign_ins_by_client ON dashboard_sign_ins(client, created_at);
CREATE INDEX dashboard_sign_ins_by_time ON dashboard_sign_ins(created_at);

-- Actions taken in the dashboard are call-log rows too, naming the user who took them.
ALTER TABLE call_logs ADD COLUMN user_id TEXT;

-- The ledger entries and deliveries of one movement or endpoint, for detail pages.
CREATE INDEX ledger_by_source ON ledger_entries(source_id);
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries(endpoint_id, seq);
