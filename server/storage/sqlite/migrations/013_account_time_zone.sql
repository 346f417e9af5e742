-- The dashboard shows times in the account's time zone (decision 0036); Cameroon's by default.
ALTER TABLE accounts ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'Africa/Douala';
