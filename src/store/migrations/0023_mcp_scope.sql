ALTER TABLE "api_keys" ADD COLUMN "mcp_read_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "mcp_tools" jsonb;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "mcp_read_only" boolean DEFAULT false NOT NULL;