-- Live Mobile Money operators (docs/decisions/0010-live-operators.md).
-- PostgreSQL translation of sqlite/migrations/004_live_operators.sql.
-- A payout to a number records the operator it was routed to (by the number's network or the
-- caller's choice), so its status is asked of the same operator after a restart.
ALTER TABLE payouts ADD COLUMN payment_method TEXT;
-- A token the operator gave for a request (Orange Money's payToken), committed before the
-- request goes further, so a restart asks about the same request instead of starting another.
ALTER TABLE payments ADD COLUMN operator_token TEXT;
ALTER TABLE topups ADD COLUMN operator_token TEXT;
ALTER TABLE payouts ADD COLUMN operator_token TEXT;
-- Operator callbacks name our reference: finding the pending row must not scan the table.
CREATE INDEX payments_by_operator_ref ON payments(operator_ref) WHERE status = 'initiated';
CREATE INDEX topups_by_operator_ref ON topups(operator_ref) WHERE status = 'initiated';
CREATE INDEX payouts_by_operator_ref ON payouts(operator_ref) WHERE status = 'pending';
