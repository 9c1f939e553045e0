CREATE TABLE "integrations"."web_hook_logs" (
	"id" serial PRIMARY KEY NOT NULL,
	"web_hook_id" integer NOT NULL,
	"trigger" text NOT NULL,
	"url" text NOT NULL,
	"request_headers" jsonb NOT NULL,
	"request_data" jsonb NOT NULL,
	"response_headers" jsonb NOT NULL,
	"response_body" text NOT NULL,
	"response_status" text NOT NULL,
	"execution_duration" double precision NOT NULL,
	"internal_error_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integrations"."web_hooks" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer,
	"group_id" integer,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"url" text NOT NULL,
	"name" text,
	"description" text,
	"token" text,
	"events" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"enable_ssl_verification" boolean DEFAULT true NOT NULL,
	"push_events_branch_filter" text,
	"branch_filter_strategy" text DEFAULT 'wildcard' NOT NULL,
	"custom_webhook_template" text,
	"custom_headers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"url_variables" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"recent_failures" integer DEFAULT 0 NOT NULL,
	"backoff_count" integer DEFAULT 0 NOT NULL,
	"disabled_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "web_hooks_one_owner" CHECK (("integrations"."web_hooks"."project_id" IS NULL) <> ("integrations"."web_hooks"."group_id" IS NULL))
);
--> statement-breakpoint
ALTER TABLE "integrations"."integration_deliveries" ALTER COLUMN "project_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "integrations"."integration_deliveries" ADD COLUMN "web_hook_id" integer;--> statement-breakpoint
ALTER TABLE "integrations"."web_hook_logs" ADD CONSTRAINT "web_hook_logs_web_hook_id_web_hooks_id_fk" FOREIGN KEY ("web_hook_id") REFERENCES "integrations"."web_hooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "web_hook_logs_hook_idx" ON "integrations"."web_hook_logs" USING btree ("web_hook_id","id");--> statement-breakpoint
CREATE INDEX "web_hooks_project_idx" ON "integrations"."web_hooks" USING btree ("project_id") WHERE "integrations"."web_hooks"."project_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "web_hooks_group_idx" ON "integrations"."web_hooks" USING btree ("group_id") WHERE "integrations"."web_hooks"."group_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "integrations"."integration_deliveries" ADD CONSTRAINT "integration_deliveries_web_hook_id_web_hooks_id_fk" FOREIGN KEY ("web_hook_id") REFERENCES "integrations"."web_hooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "integration_deliveries_group_event_idx" ON "integrations"."integration_deliveries" USING btree ("slug","event_id") WHERE "integrations"."integration_deliveries"."project_id" IS NULL;--> statement-breakpoint
CREATE INDEX "integration_deliveries_web_hook_idx" ON "integrations"."integration_deliveries" USING btree ("web_hook_id","id") WHERE "integrations"."integration_deliveries"."status" IN ('new', 'pending');