-- Hosted payments may carry a return_url: the merchant page the checkout links back to once
-- the payment reached its final state (issue 16). NULL for direct payments and when not given.
-- PostgreSQL translation of sqlite/migrations/006_payment_return_url.sql.
ALTER TABLE payments ADD COLUMN return_url TEXT;
