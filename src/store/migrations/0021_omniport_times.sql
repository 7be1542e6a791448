ALTER TABLE "unified_objects" ADD COLUMN "modified_at" timestamp with time zone DEFAULT date_trunc('milliseconds', now()) NOT NULL;--> statement-breakpoint
-- Hand-written: the stored view carries Omniport's times (created_at: entered the store; modified_at: last
-- changed in it) and the provider's (remote_created_at, remote_updated_at), as src/core/unified/view.ts
-- builds them in JavaScript. Until now created_at and modified_at were the provider's times.
CREATE OR REPLACE FUNCTION omniport_view_json(o unified_objects) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT (o.data || jsonb_build_object(
    'id', o.id, 'remote_id', o.remote_id, 'field_mappings', '{}'::jsonb,
    'created_at', to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'modified_at', to_char(o.modified_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'remote_created_at', to_char(o.remote_created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'remote_updated_at', to_char(o.remote_updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'remote_was_deleted', o.remote_was_deleted))::text
$$;
--> statement-breakpoint
DROP TRIGGER "unified_objects_view" ON "unified_objects";--> statement-breakpoint
CREATE TRIGGER unified_objects_view BEFORE INSERT OR UPDATE OF id, data, remote_id, created_at, modified_at, remote_created_at, remote_updated_at, remote_was_deleted
  ON unified_objects FOR EACH ROW EXECUTE FUNCTION omniport_unified_view();
--> statement-breakpoint
-- The last write is the best-known last change of the objects stored before this migration.
UPDATE unified_objects SET modified_at = updated_at;--> statement-breakpoint
CREATE INDEX "unified_objects_created_idx" ON "unified_objects" USING btree ("connection_id","object_type","created_at","id");--> statement-breakpoint
CREATE INDEX "unified_objects_modified_idx" ON "unified_objects" USING btree ("connection_id","object_type","modified_at","id");--> statement-breakpoint
CREATE INDEX "unified_objects_remote_created_idx" ON "unified_objects" USING btree ("connection_id","object_type","remote_created_at","id");--> statement-breakpoint
CREATE INDEX "unified_objects_remote_updated_idx" ON "unified_objects" USING btree ("connection_id","object_type","remote_updated_at","id");
