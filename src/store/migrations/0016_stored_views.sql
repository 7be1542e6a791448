ALTER TABLE "unified_objects" ADD COLUMN "view_json" text;--> statement-breakpoint
-- Hand-written: the stored view is the object exactly as the API answers it without remote_data and
-- field_mappings values (src/core/unified/view.ts builds the same object in JavaScript; the conformance
-- suites compare both). Timestamps as Date.toISOString writes them: UTC, milliseconds.
CREATE FUNCTION omniport_view_json(o unified_objects) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT (o.data || jsonb_build_object(
    'id', o.id, 'remote_id', o.remote_id, 'field_mappings', '{}'::jsonb,
    'created_at', to_char(o.remote_created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'modified_at', to_char(o.remote_updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'remote_was_deleted', o.remote_was_deleted))::text
$$;
--> statement-breakpoint
CREATE FUNCTION omniport_unified_view() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.view_json := omniport_view_json(NEW);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER unified_objects_view BEFORE INSERT OR UPDATE OF id, data, remote_id, remote_created_at, remote_updated_at, remote_was_deleted
  ON unified_objects FOR EACH ROW EXECUTE FUNCTION omniport_unified_view();
--> statement-breakpoint
UPDATE unified_objects SET view_json = omniport_view_json(unified_objects);
