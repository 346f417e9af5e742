-- Keys have roles (docs/decisions/0030-key-roles.md): what a key may do, chosen when it is
-- created. Every key made before roles existed keeps the access it had: `full`.
ALTER TABLE api_keys ADD COLUMN role TEXT NOT NULL DEFAULT 'full'
  CHECK (role IN ('full', 'collect', 'read_only'));

-- A sign-in attempt is recorded, as a failure, before its password is hashed, and turned into
-- a success afterwards by this id (docs/decisions/0031-dashboard-sign-in-and-passwords.md).
-- Attempts are counted per email and client address together, and per client address.
ALTER TABLE dashboard_sign_ins ADD COLUMN attempt_id TEXT;
CREATE INDEX dashboard_sign_ins_by_pair ON dashboard_sign_ins(email, client, created_at);
CREATE INDEX dashboard_sign_ins_by_attempt ON dashboard_sign_ins(attempt_id);
