-- A counter that every change of an API key moves (a rotation's grace period, a revocation, an
-- operator's reset), whichever instance made it, and a notification on channel
-- api_keys_changed that PostgreSQL delivers to every listening instance when it commits. Each
-- instance caches the keys it has verified (server/domain/verified-keys.ts) and drops them all
-- on that notification (server/storage/postgres/key-changes.ts). New keys need no bump.
CREATE TABLE key_changes (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version BIGINT NOT NULL
);
INSERT INTO key_changes (id, version) VALUES (1, 0);

CREATE FUNCTION api_keys_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE key_changes SET version = version + 1 WHERE id = 1;
  PERFORM pg_notify('api_keys_changed', '');
  RETURN NULL;
END
$$;

CREATE TRIGGER api_keys_changed AFTER UPDATE OR DELETE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION api_keys_changed();
