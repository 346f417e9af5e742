-- Request counters shared by every instance on one database: the per-account rate limit and the
-- failed-authentication limit per client address. Used on PostgreSQL, where several instances
-- serve one API; a SQLite deployment is one process and counts in memory, and keeps the table
-- only so that both engines share one numbered history (docs/decisions/0017-postgresql.md).
CREATE TABLE rate_limit_windows (
  key TEXT PRIMARY KEY,
  started_at INTEGER NOT NULL,
  count INTEGER NOT NULL CHECK (count >= 0)
);
CREATE INDEX rate_limit_windows_started ON rate_limit_windows (started_at);
