-- Caches of API keys, connections and field mappings (src/store/lookup-cache.ts) forget an entry as soon as
-- its row changes, whichever process or tool changed it: every change that matters is announced on the
-- omniport_cache channel, delivered when the transaction commits.
CREATE FUNCTION omniport_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'api_keys' THEN
    PERFORM pg_notify('omniport_cache', 'k:' || OLD.key_hash);
  ELSIF TG_TABLE_NAME = 'connections' THEN
    PERFORM pg_notify('omniport_cache', 'c:' || OLD.id);
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM pg_notify('omniport_cache', 'm:' || NEW.project_id);
  ELSE
    PERFORM pg_notify('omniport_cache', 'm:' || OLD.project_id);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- last_used_at is written at most once a minute and changes nothing a cache holds.
CREATE TRIGGER api_keys_cache AFTER UPDATE OF key_hash, project_id, user_id, revoked_at OR DELETE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION omniport_cache_notify();--> statement-breakpoint
CREATE TRIGGER connections_cache AFTER UPDATE OR DELETE ON connections
  FOR EACH ROW EXECUTE FUNCTION omniport_cache_notify();--> statement-breakpoint
CREATE TRIGGER field_mappings_cache AFTER INSERT OR UPDATE OR DELETE ON field_mappings
  FOR EACH ROW EXECUTE FUNCTION omniport_cache_notify();--> statement-breakpoint
CREATE TRIGGER field_attributes_cache AFTER UPDATE OR DELETE ON field_attributes
  FOR EACH ROW EXECUTE FUNCTION omniport_cache_notify();
