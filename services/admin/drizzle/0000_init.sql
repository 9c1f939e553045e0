CREATE SCHEMA "admin";
--> statement-breakpoint
CREATE TABLE "admin"."application_settings" (
	"id" integer PRIMARY KEY NOT NULL,
	"values" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admin"."broadcast_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"message" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"font" text,
	"target_access_levels" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"target_path" text,
	"broadcast_type" text DEFAULT 'banner' NOT NULL,
	"dismissable" boolean,
	"theme" text DEFAULT 'indigo' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admin"."experiment_gates" (
	"key" text PRIMARY KEY NOT NULL,
	"gates" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admin"."rate_limit_counters" (
	"key" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "rate_limit_counters_key_window_start_pk" PRIMARY KEY("key","window_start")
);
--> statement-breakpoint
CREATE TABLE "admin"."repository_storage_moves" (
	"id" serial PRIMARY KEY NOT NULL,
	"container_type" text NOT NULL,
	"container_id" integer NOT NULL,
	"state" text DEFAULT 'initial' NOT NULL,
	"source_storage_name" text NOT NULL,
	"destination_storage_name" text NOT NULL,
	"error_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "broadcast_messages_window_idx" ON "admin"."broadcast_messages" USING btree ("ends_at","starts_at");--> statement-breakpoint
CREATE INDEX "rate_limit_counters_window_idx" ON "admin"."rate_limit_counters" USING btree ("window_start");--> statement-breakpoint
CREATE INDEX "storage_moves_container_idx" ON "admin"."repository_storage_moves" USING btree ("container_type","container_id","id");--> statement-breakpoint
CREATE INDEX "storage_moves_type_idx" ON "admin"."repository_storage_moves" USING btree ("container_type","id");--> statement-breakpoint
CREATE INDEX "storage_moves_state_idx" ON "admin"."repository_storage_moves" USING btree ("state");