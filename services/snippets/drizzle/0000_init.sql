CREATE SCHEMA "snippets";
--> statement-breakpoint
CREATE TABLE "snippets"."internal_ids" (
	"project_id" integer NOT NULL,
	"usage" text NOT NULL,
	"last_value" integer NOT NULL,
	CONSTRAINT "internal_ids_project_id_usage_pk" PRIMARY KEY("project_id","usage")
);
--> statement-breakpoint
CREATE TABLE "snippets"."notes" (
	"id" serial PRIMARY KEY NOT NULL,
	"noteable_type" text NOT NULL,
	"noteable_id" integer,
	"commit_id" text,
	"project_id" integer NOT NULL,
	"author_id" integer NOT NULL,
	"body" text NOT NULL,
	"system" boolean DEFAULT false NOT NULL,
	"internal" boolean DEFAULT false NOT NULL,
	"type" text,
	"discussion_id" text NOT NULL,
	"resolvable" boolean DEFAULT false NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by_id" integer,
	"position" jsonb,
	"imported" boolean DEFAULT false NOT NULL,
	"updated_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "snippets"."outbox" (
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
CREATE TABLE "snippets"."processed_events" (
	"event_id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "snippets"."resource_state_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"issue_id" integer,
	"merge_request_id" integer,
	"state" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "snippets"."snippet_files" (
	"snippet_id" integer NOT NULL,
	"path" text NOT NULL,
	"content" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "snippet_files_snippet_id_path_pk" PRIMARY KEY("snippet_id","path")
);
--> statement-breakpoint
CREATE TABLE "snippets"."snippets" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer,
	"author_id" integer NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"visibility" text NOT NULL,
	"repository_storage" text DEFAULT 'default' NOT NULL,
	"repository_read_only" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "snippets"."user_agent_details" (
	"snippet_id" integer PRIMARY KEY NOT NULL,
	"user_agent" text NOT NULL,
	"ip_address" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "snippets"."snippet_files" ADD CONSTRAINT "snippet_files_snippet_id_snippets_id_fk" FOREIGN KEY ("snippet_id") REFERENCES "snippets"."snippets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "snippets"."user_agent_details" ADD CONSTRAINT "user_agent_details_snippet_id_snippets_id_fk" FOREIGN KEY ("snippet_id") REFERENCES "snippets"."snippets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notes_noteable_idx" ON "snippets"."notes" USING btree ("noteable_type","noteable_id","created_at","id");--> statement-breakpoint
CREATE INDEX "notes_discussion_idx" ON "snippets"."notes" USING btree ("discussion_id","created_at");--> statement-breakpoint
CREATE INDEX "notes_project_idx" ON "snippets"."notes" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "outbox_pending_idx" ON "snippets"."outbox" USING btree ("claimed_until","id");--> statement-breakpoint
CREATE INDEX "rse_issue_idx" ON "snippets"."resource_state_events" USING btree ("issue_id","id");--> statement-breakpoint
CREATE INDEX "rse_mr_idx" ON "snippets"."resource_state_events" USING btree ("merge_request_id","id");--> statement-breakpoint
CREATE INDEX "snippets_project_idx" ON "snippets"."snippets" USING btree ("project_id","id");--> statement-breakpoint
CREATE INDEX "snippets_author_idx" ON "snippets"."snippets" USING btree ("author_id","id");--> statement-breakpoint
CREATE INDEX "snippets_visibility_idx" ON "snippets"."snippets" USING btree ("visibility","id");--> statement-breakpoint
CREATE INDEX "snippets_storage_idx" ON "snippets"."snippets" USING btree ("repository_storage","id");