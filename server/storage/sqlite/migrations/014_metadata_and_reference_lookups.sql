-- The merchant's own key-value pairs on payments, payouts (refunds and bank payouts included)
-- and top-ups (docs/decisions/0040-metadata-and-reference-filters.md): one JSON object as text,
-- NULL when none was given (answered as {}). Text on both engines, so a repository reads the
-- same value from either. Lists filter by the merchant's reference (`?reference=`), found by an
-- index of the account's references in list order; rows without one are not in it.
ALTER TABLE payments ADD COLUMN metadata TEXT;
ALTER TABLE payouts ADD COLUMN metadata TEXT;
ALTER TABLE topups ADD COLUMN metadata TEXT;
CREATE INDEX payments_by_reference ON payments(account_id, mode, reference, seq) WHERE reference IS NOT NULL;
CREATE INDEX payouts_by_reference ON payouts(account_id, mode, reference, seq) WHERE reference IS NOT NULL;
CREATE INDEX topups_by_reference ON topups(account_id, mode, reference, seq) WHERE reference IS NOT NULL;
