ALTER TABLE "sync_states" ADD COLUMN "skipped_in_run" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_states" ADD COLUMN "skipped" jsonb;