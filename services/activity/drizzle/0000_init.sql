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
CREATE TABLE "activity"."outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL,
	"name" text NOT NULL,
	"payload" jsonb NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_until" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	CONSTRAINT "outbox_event_id_unique" UNIQUE("event_id")
);
--> statement-breakpoint
CREATE TABLE "activity"."processed_events" (
	"event_id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "events_source_event_idx" ON "activity"."events" USING btree ("source_event_id");--> statement-breakpoint
CREATE INDEX "events_project_idx" ON "activity"."events" USING btree ("project_id","id");--> statement-breakpoint
CREATE INDEX "events_author_idx" ON "activity"."events" USING btree ("author_id","id");--> statement-breakpoint
CREATE INDEX "outbox_pending_idx" ON "activity"."outbox" USING btree ("claimed_until","id");