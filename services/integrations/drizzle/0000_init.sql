CREATE SCHEMA "integrations";
--> statement-breakpoint
CREATE TABLE "integrations"."integration_deliveries" (
	"id" serial PRIMARY KEY NOT NULL,
	"integration_id" integer,
	"slug" text NOT NULL,
	"project_id" integer NOT NULL,
	"event_id" text NOT NULL,
	"event_name" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"payload" jsonb NOT NULL,
	"message" jsonb,
	"status" text DEFAULT 'new' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"response_code" integer,
	"error" text,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "integrations"."integrations" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer,
	"group_id" integer,
	"slug" text NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	"use_inherited_settings" boolean DEFAULT false NOT NULL,
	"properties" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"events" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "integrations_one_owner" CHECK (("integrations"."integrations"."project_id" IS NULL) <> ("integrations"."integrations"."group_id" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "integrations"."outbox" (
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
CREATE TABLE "integrations"."processed_events" (
	"event_id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "integrations"."integration_deliveries" ADD CONSTRAINT "integration_deliveries_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "integrations"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "integration_deliveries_event_idx" ON "integrations"."integration_deliveries" USING btree ("project_id","slug","event_id");--> statement-breakpoint
CREATE INDEX "integration_deliveries_due_idx" ON "integrations"."integration_deliveries" USING btree ("next_attempt_at") WHERE "integrations"."integration_deliveries"."status" IN ('new', 'pending');--> statement-breakpoint
CREATE INDEX "integration_deliveries_integration_idx" ON "integrations"."integration_deliveries" USING btree ("integration_id");--> statement-breakpoint
CREATE UNIQUE INDEX "integrations_project_slug_idx" ON "integrations"."integrations" USING btree ("project_id","slug") WHERE "integrations"."integrations"."project_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "integrations_group_slug_idx" ON "integrations"."integrations" USING btree ("group_id","slug") WHERE "integrations"."integrations"."group_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "outbox_pending_idx" ON "integrations"."outbox" USING btree ("claimed_until","id");