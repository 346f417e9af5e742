-- A stored response (what an idempotent request replays) never keeps a secret it revealed: a
-- webhook endpoint's signing secret, an API key. Every version that ran on PostgreSQL stores
-- only the id of what such a request made (server/domain/transaction.ts, `secret_withheld`);
-- the trigger holds the rule in the database too, whichever instance or version writes, as
-- SQLite's twin of this migration does for the older versions that stored the response whole.
-- scrub_pending is the mark it leaves: SQLite's start-up reads it to rebuild the file (VACUUM);
-- PostgreSQL has no free pages to scrub that way, and nothing reads it here. The table is kept
-- so both engines have the same schema (test/storage/postgres-engine.test.ts).
CREATE TABLE scrub_pending (
  id INTEGER PRIMARY KEY CHECK (id = 1)
);

CREATE FUNCTION idempotency_keys_forget_revealed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM idempotency_keys WHERE account_id = NEW.account_id AND mode = NEW.mode AND key = NEW.key;
  INSERT INTO scrub_pending (id) VALUES (1) ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;

-- The condition is checked before the function is called: other records cost two LIKEs.
CREATE TRIGGER idempotency_keys_forget_revealed AFTER INSERT OR UPDATE OF body ON idempotency_keys
  FOR EACH ROW
  WHEN (NEW.body LIKE '%"secret":"whsec%' OR NEW.body LIKE '%"secret_key":"sk%')
  EXECUTE FUNCTION idempotency_keys_forget_revealed();
