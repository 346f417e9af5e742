-- Two-step sign-in (decision 0045): a user may add a time-based code (TOTP) to their password;
-- an account may require it of its owners.
-- The secret is sealed (AES-256-GCM, bound to the user's id) like a webhook secret; the last
-- step accepted refuses a code used once already.
ALTER TABLE dashboard_users ADD COLUMN totp_secret TEXT;
ALTER TABLE dashboard_users ADD COLUMN totp_enabled_at INTEGER;
ALTER TABLE dashboard_users ADD COLUMN totp_last_step INTEGER;
ALTER TABLE accounts ADD COLUMN owners_need_two_step INTEGER NOT NULL DEFAULT 0
  CHECK (owners_need_two_step IN (0, 1));

-- One-use recovery codes, stored as SHA-256; a new set replaces the old one.
CREATE TABLE dashboard_recovery_codes (
  code_hash  BLOB PRIMARY KEY,
  user_id    TEXT NOT NULL REFERENCES dashboard_users(id),
  created_at INTEGER NOT NULL,
  used_at    INTEGER
) STRICT;
CREATE INDEX dashboard_recovery_codes_by_user ON dashboard_recovery_codes(user_id);

-- Between a right password and the second step: the cookie holds a random token, only its
-- SHA-256 is stored; five minutes, used once, five wrong codes at most. `enrol` when an owner
-- of an account that requires two-step sign-in has not turned it on yet: the sealed secret
-- they are shown waits here until they confirm a code.
CREATE TABLE dashboard_challenges (
  token_hash     BLOB PRIMARY KEY,
  user_id        TEXT NOT NULL REFERENCES dashboard_users(id),
  kind           TEXT NOT NULL CHECK (kind IN ('code', 'enrol')),
  pending_secret TEXT,
  next           TEXT,
  failures       INTEGER NOT NULL DEFAULT 0,
  created_at     INTEGER NOT NULL,
  expires_at     INTEGER NOT NULL,
  used_at        INTEGER
) STRICT;
CREATE INDEX dashboard_challenges_by_user ON dashboard_challenges(user_id, created_at);
CREATE INDEX dashboard_challenges_by_expiry ON dashboard_challenges(expires_at);
