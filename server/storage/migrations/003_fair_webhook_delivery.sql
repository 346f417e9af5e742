-- Fair webhook delivery (docs/decisions/0009-fair-webhook-delivery.md).

-- Secret rotation with an overlap: the previous secret keeps signing (beside the new one)
-- until it expires. Stored exactly as `secret` is.
ALTER TABLE webhook_endpoints ADD COLUMN previous_secret TEXT;
ALTER TABLE webhook_endpoints ADD COLUMN previous_secret_expires_at INTEGER;

-- Circuit breaker, persisted so that a restart does not hammer a failing receiver again:
-- failed attempts in a row, and until when the endpoint's deliveries are paused.
ALTER TABLE webhook_endpoints ADD COLUMN consecutive_failures INTEGER NOT NULL DEFAULT 0;
ALTER TABLE webhook_endpoints ADD COLUMN paused_until INTEGER;
