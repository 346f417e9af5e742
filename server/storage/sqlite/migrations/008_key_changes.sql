-- A counter that every change of an API key moves (a rotation's grace period, a revocation, an
-- operator's reset), whichever process made it. Each process caches the keys it has verified
-- (server/domain/verified-keys.ts) and trusts an entry only while this counter is the one it read
-- before the lookup: a revoked key stops working at once, in this process and in any other on
-- the same file. New keys need no bump: nothing about them is cached before they exist.
CREATE TABLE key_changes (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL
) STRICT;
INSERT INTO key_changes (id, version) VALUES (1, 0);

CREATE TRIGGER api_keys_changed_on_update AFTER UPDATE ON api_keys
BEGIN
  UPDATE key_changes SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER api_keys_changed_on_delete AFTER DELETE ON api_keys
BEGIN
  UPDATE key_changes SET version = version + 1 WHERE id = 1;
END;
