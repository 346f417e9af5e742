-- Forgotten passwords (decision 0043): a one-time link is an invitation (7 days, sets a first
-- password and signs in) or a reset (30 minutes, sets a new password and ends every session).
-- A newer reset link and any password change spend the user's other unused links.
-- PostgreSQL translation of sqlite/migrations/016_password_resets.sql.
ALTER TABLE dashboard_links ADD COLUMN purpose TEXT NOT NULL DEFAULT 'invitation'
  CHECK (purpose IN ('invitation', 'reset'));
CREATE INDEX dashboard_links_by_user ON dashboard_links(user_id);

-- Requests for a reset link by email, whether or not the email is a user's: counted per email
-- and per client address for the rate limit, kept a day.
CREATE TABLE dashboard_reset_requests (
  seq        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email      TEXT NOT NULL,
  client     TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX dashboard_reset_requests_by_email ON dashboard_reset_requests(email, created_at);
CREATE INDEX dashboard_reset_requests_by_client ON dashboard_reset_requests(client, created_at);
CREATE INDEX dashboard_reset_requests_by_time ON dashboard_reset_requests(created_at);
