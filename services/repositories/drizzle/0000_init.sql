CREATE SCHEMA "repositories";
--> statement-breakpoint
CREATE TABLE "repositories"."outbox" (
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
CREATE TABLE "repositories"."processed_events" (
	"event_id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "repositories"."repositories" (
	"id" serial PRIMARY KEY NOT NULL,
	"container_kind" text NOT NULL,
	"container_id" integer NOT NULL,
	"storage" text NOT NULL,
	"disk_path" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "outbox_pending_idx" ON "repositories"."outbox" USING btree ("claimed_until","id");--> statement-breakpoint
CREATE UNIQUE INDEX "repositories_container_idx" ON "repositories"."repositories" USING btree ("container_kind","container_id");