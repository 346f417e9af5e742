-- Request counters shared by every instance on one database: the per-account rate limit and the
-- failed-authentication limit per client address (server/storage/postgres/counters.ts). One row
-- per key and current window, updated in place by one upsert per counted request.
CREATE TABLE rate_limit_windows (
  key TEXT PRIMARY KEY,
  started_at BIGINT NOT NULL,
  count BIGINT NOT NULL CHECK (count >= 0)
);
CREATE INDEX rate_limit_windows_started ON rate_limit_windows (started_at);
