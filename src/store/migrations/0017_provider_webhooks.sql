CREATE TABLE "provider_webhook_receipts" (
	"webhook_id" uuid NOT NULL,
	"delivery_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT date_trunc('milliseconds', now()) NOT NULL,
	CONSTRAINT "provider_webhook_receipts_webhook_id_delivery_id_pk" PRIMARY KEY("webhook_id","delivery_id")
);
--> statement-breakpoint
CREATE TABLE "provider_webhooks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"connection_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"route_key" text NOT NULL,
	"mode" text NOT NULL,
	"remote_ids" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"secret_encrypted" text NOT NULL,
	"expires_at" timestamp with time zone,
	"last_received_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT date_trunc('milliseconds', now()) NOT NULL,
	"updated_at" timestamp with time zone DEFAULT date_trunc('milliseconds', now()) NOT NULL
);
--> statement-breakpoint
ALTER TABLE "provider_webhook_receipts" ADD CONSTRAINT "provider_webhook_receipts_webhook_id_provider_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."provider_webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_webhooks" ADD CONSTRAINT "provider_webhooks_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_webhooks" ADD CONSTRAINT "provider_webhooks_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "provider_webhook_receipts_time_idx" ON "provider_webhook_receipts" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "provider_webhooks_route_uq" ON "provider_webhooks" USING btree ("route_key");--> statement-breakpoint
CREATE UNIQUE INDEX "provider_webhooks_connection_uq" ON "provider_webhooks" USING btree ("connection_id");