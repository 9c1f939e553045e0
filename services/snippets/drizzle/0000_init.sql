CREATE SCHEMA "snippets";
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
CREATE INDEX "outbox_pending_idx" ON "snippets"."outbox" USING btree ("claimed_until","id");--> statement-breakpoint
CREATE INDEX "snippets_project_idx" ON "snippets"."snippets" USING btree ("project_id","id");--> statement-breakpoint
CREATE INDEX "snippets_author_idx" ON "snippets"."snippets" USING btree ("author_id","id");--> statement-breakpoint
CREATE INDEX "snippets_visibility_idx" ON "snippets"."snippets" USING btree ("visibility","id");