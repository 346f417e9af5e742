-- Fair webhook delivery (docs/decisions/0009-fair-webhook-delivery.md).
-- PostgreSQL translation of sqlite/migrations/003_fair_webhook_delivery.sql.

-- Secret rotation with an overlap: the previous secret keeps signing (beside the new one)
-- until it expires. Stored exactly as `secret` is.
ALTER TABLE webhook_endpoints ADD COLUMN previous_secret TEXT;
ALTER TABLE webhook_endpoints ADD COLUMN previous_secret_expires_at BIGINT;

-- Circuit breaker, persisted so that a restart does not hammer a failing receiver again:
-- failed attempts in a row, and until when the endpoint's deliveries are paused.
ALTER TABLE webhook_endpoints ADD COLUMN consecutive_failures BIGINT NOT NULL DEFAULT 0;
ALTER TABLE webhook_endpoints ADD COLUMN paused_until BIGINT;

-- Each endpoint's oldest due deliveries, so that a claim looks only at endpoints with a free
-- slot and never walks through a backlog waiting behind a busy one.
CREATE INDEX webhook_deliveries_pending_by_endpoint ON webhook_deliveries(endpoint_id, next_attempt_at)
  WHERE status = 'pending';
