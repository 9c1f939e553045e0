CREATE SCHEMA "error_tracking";
--> statement-breakpoint
CREATE TABLE "error_tracking"."client_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"public_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "error_tracking"."error_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"event_id" text NOT NULL,
	"exception_type" text,
	"exception_message" text,
	"platform" text,
	"environment" text,
	"occurred_at" timestamp with time zone NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "error_tracking"."outbox" (
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
CREATE TABLE "error_tracking"."processed_events" (
	"event_id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "error_tracking"."settings" (
	"project_id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"integrated" boolean DEFAULT true NOT NULL,
	"api_url" text,
	"project_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "client_keys_public_key_idx" ON "error_tracking"."client_keys" USING btree ("public_key");--> statement-breakpoint
CREATE INDEX "client_keys_project_idx" ON "error_tracking"."client_keys" USING btree ("project_id");--> statement-breakpoint
CREATE UNIQUE INDEX "error_events_project_event_idx" ON "error_tracking"."error_events" USING btree ("project_id","event_id");--> statement-breakpoint
CREATE INDEX "outbox_pending_idx" ON "error_tracking"."outbox" USING btree ("claimed_until","id");