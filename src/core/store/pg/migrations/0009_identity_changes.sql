-- Each serve process caches the API keys it has looked up (src/core/api/auth.ts). SQLite tells a solo
-- process its store changed (data_version); here a committed change to what decides authentication (a
-- key's revocation, expiry, limits, owner or secret; a workspace's plan; a deletion) notifies every
-- process on `adlens_identity`, and each one's key cache is then stale (src/core/events-pg.ts).
-- `last_used_at`, written once a minute per key, is left out: it decides nothing.
CREATE FUNCTION notify_identity_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('adlens_identity', TG_TABLE_NAME);
  RETURN NULL;
END
$$;
CREATE TRIGGER api_keys_identity_changed
  AFTER UPDATE OF workspace_id, user_id, mode, key_hash, limit_overrides, expires_at, revoked_at OR DELETE
  ON api_keys FOR EACH STATEMENT EXECUTE FUNCTION notify_identity_changed();
CREATE TRIGGER workspaces_identity_changed
  AFTER UPDATE OF plan OR DELETE ON workspaces FOR EACH STATEMENT EXECUTE FUNCTION notify_identity_changed();
