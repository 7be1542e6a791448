CREATE TABLE "sync_states" (
	"connection_id" uuid NOT NULL,
	"stream" text NOT NULL,
	"project_id" uuid NOT NULL,
	"status" text DEFAULT 'idle' NOT NULL,
	"run_id" uuid,
	"mode" text,
	"resume" text,
	"run_started_at" timestamp with time zone,
	"watermark" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"last_error" text,
	"records_in_run" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT date_trunc('milliseconds', now()) NOT NULL,
	CONSTRAINT "sync_states_connection_id_stream_pk" PRIMARY KEY("connection_id","stream")
);
--> statement-breakpoint
CREATE TABLE "unified_objects" (
	"id" uuid PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "unified_objects_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"project_id" uuid NOT NULL,
	"connection_id" uuid NOT NULL,
	"object_type" text NOT NULL,
	"remote_id" text NOT NULL,
	"parent_id" uuid,
	"data" jsonb NOT NULL,
	"remote_data" jsonb NOT NULL,
	"field_mappings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"remote_created_at" timestamp with time zone,
	"remote_updated_at" timestamp with time zone,
	"remote_was_deleted" boolean DEFAULT false NOT NULL,
	"last_seen_run" uuid,
	"created_at" timestamp with time zone DEFAULT date_trunc('milliseconds', now()) NOT NULL,
	"updated_at" timestamp with time zone DEFAULT date_trunc('milliseconds', now()) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"connection_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"content_base64" text,
	"file_url" text,
	"created_at" timestamp with time zone DEFAULT date_trunc('milliseconds', now()) NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sync_states" ADD CONSTRAINT "sync_states_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_states" ADD CONSTRAINT "sync_states_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unified_objects" ADD CONSTRAINT "unified_objects_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unified_objects" ADD CONSTRAINT "unified_objects_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "unified_objects_remote_uq" ON "unified_objects" USING btree ("connection_id","object_type","remote_id");--> statement-breakpoint
CREATE INDEX "unified_objects_list_idx" ON "unified_objects" USING btree ("connection_id","object_type","seq");--> statement-breakpoint
CREATE INDEX "unified_objects_parent_idx" ON "unified_objects" USING btree ("parent_id");