CREATE SCHEMA "activity";
--> statement-breakpoint
CREATE TABLE "activity"."events" (
	"id" serial PRIMARY KEY NOT NULL,
	"source_event_id" uuid NOT NULL,
	"project_id" integer NOT NULL,
	"author_id" integer NOT NULL,
	"action" text NOT NULL,
	"target_type" text,
	"target_id" integer,
	"target_iid" integer,
	"target_title" text,
	"confidential" boolean DEFAULT false NOT NULL,
	"internal" boolean DEFAULT false NOT NULL,
	"note" jsonb,
	"push_data" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "events_source_event_idx" ON "activity"."events" USING btree ("source_event_id");--> statement-breakpoint
CREATE INDEX "events_project_idx" ON "activity"."events" USING btree ("project_id","id");--> statement-breakpoint
CREATE INDEX "events_author_idx" ON "activity"."events" USING btree ("author_id","id");