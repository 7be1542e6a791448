CREATE TABLE "deletion_check_ids" (
	"connection_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"remote_id" text NOT NULL,
	CONSTRAINT "deletion_check_ids_run_id_remote_id_pk" PRIMARY KEY("run_id","remote_id")
);
--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "deletion_check_interval_minutes" integer DEFAULT 360;--> statement-breakpoint
ALTER TABLE "deletion_check_ids" ADD CONSTRAINT "deletion_check_ids_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deletion_check_ids_connection_idx" ON "deletion_check_ids" USING btree ("connection_id");