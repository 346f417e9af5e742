-- Hosted payments may carry a return_url: the merchant page the checkout links back to once
-- the payment reached its final state (issue 16). NULL for direct payments and when not given.
ALTER TABLE payments ADD COLUMN return_url TEXT;
