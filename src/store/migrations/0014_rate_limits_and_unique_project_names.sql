CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"points" integer NOT NULL,
	"expire" timestamp with time zone
);
--> statement-breakpoint
-- Hand-written: projects sharing a name before names became unique keep the oldest one's name; the others get their id's first 8 characters appended.
UPDATE "projects" SET "name" = "name" || ' (' || left("id"::text, 8) || ')' WHERE "id" IN (SELECT "id" FROM (SELECT "id", row_number() OVER (PARTITION BY "name" ORDER BY "created_at", "id") AS "n" FROM "projects") AS "ranked" WHERE "n" > 1);
--> statement-breakpoint
CREATE UNIQUE INDEX "projects_name_unique" ON "projects" USING btree ("name");