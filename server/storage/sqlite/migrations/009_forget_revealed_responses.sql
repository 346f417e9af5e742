-- A stored response (what an idempotent request replays) never keeps a secret it revealed: a
-- webhook endpoint's signing secret, an API key. This version stores only the id of what such a
-- request made (server/domain/transaction.ts, `secret_withheld`), but the versions before
-- secrets were sealed at rest stored the response whole, and an older version opens this file
-- without complaint (it skips the migrations it does not know). Until now every start read the
-- whole table to find such a record (0.5-0.6 s at 300,000 records, docs/benchmarks.md). Instead,
-- the triggers below forget one as it is written, whichever version writes it, and leave a mark
-- that start-up reads (server/storage/open-store.ts): the file is then rebuilt (VACUUM) and its
-- WAL emptied, so no free page keeps the bytes that the older version's connection, without
-- secure_delete, left there.
CREATE TABLE scrub_pending (
  id INTEGER PRIMARY KEY CHECK (id = 1)
) STRICT;

CREATE TRIGGER idempotency_keys_forget_revealed_on_insert AFTER INSERT ON idempotency_keys
  WHEN NEW.body LIKE '%"secret":"whsec%' OR NEW.body LIKE '%"secret_key":"sk%'
BEGIN
  DELETE FROM idempotency_keys WHERE account_id = NEW.account_id AND mode = NEW.mode AND key = NEW.key;
  INSERT OR IGNORE INTO scrub_pending (id) VALUES (1);
END;

CREATE TRIGGER idempotency_keys_forget_revealed_on_update AFTER UPDATE OF body ON idempotency_keys
  WHEN NEW.body LIKE '%"secret":"whsec%' OR NEW.body LIKE '%"secret_key":"sk%'
BEGIN
  DELETE FROM idempotency_keys WHERE account_id = NEW.account_id AND mode = NEW.mode AND key = NEW.key;
  INSERT OR IGNORE INTO scrub_pending (id) VALUES (1);
END;

-- What an older version stored before this file was upgraded: read once, here, and marked when
-- anything was forgotten (changes() counts the rows of the statement just before).
DELETE FROM idempotency_keys WHERE body LIKE '%"secret":"whsec%' OR body LIKE '%"secret_key":"sk%';
INSERT OR IGNORE INTO scrub_pending (id) SELECT 1 WHERE changes() > 0;
