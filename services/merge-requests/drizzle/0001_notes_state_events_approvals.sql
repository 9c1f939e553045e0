CREATE TABLE "merge_requests"."notes" (
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
CREATE TABLE "merge_requests"."resource_state_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"issue_id" integer,
	"merge_request_id" integer,
	"state" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "merge_requests"."approvals" (
	"merge_request_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone,
	CONSTRAINT "approvals_merge_request_id_user_id_pk" PRIMARY KEY("merge_request_id","user_id")
);
--> statement-breakpoint
CREATE INDEX "notes_noteable_idx" ON "merge_requests"."notes" USING btree ("noteable_type","noteable_id","created_at","id");--> statement-breakpoint
CREATE INDEX "notes_discussion_idx" ON "merge_requests"."notes" USING btree ("discussion_id","created_at");--> statement-breakpoint
CREATE INDEX "notes_project_idx" ON "merge_requests"."notes" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "rse_issue_idx" ON "merge_requests"."resource_state_events" USING btree ("issue_id","id");--> statement-breakpoint
CREATE INDEX "rse_mr_idx" ON "merge_requests"."resource_state_events" USING btree ("merge_request_id","id");