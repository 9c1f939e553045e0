CREATE SCHEMA "issues";
--> statement-breakpoint
CREATE TABLE "issues"."internal_ids" (
	"project_id" integer NOT NULL,
	"usage" text NOT NULL,
	"last_value" integer NOT NULL,
	CONSTRAINT "internal_ids_project_id_usage_pk" PRIMARY KEY("project_id","usage")
);
--> statement-breakpoint
CREATE TABLE "issues"."issue_assignees" (
	"issue_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "issue_assignees_issue_id_user_id_pk" PRIMARY KEY("issue_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "issues"."issue_labels" (
	"issue_id" integer NOT NULL,
	"label_id" integer NOT NULL,
	CONSTRAINT "issue_labels_issue_id_label_id_pk" PRIMARY KEY("issue_id","label_id")
);
--> statement-breakpoint
CREATE TABLE "issues"."issues" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"iid" integer NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"state" text DEFAULT 'opened' NOT NULL,
	"issue_type" text DEFAULT 'issue' NOT NULL,
	"author_id" integer NOT NULL,
	"closed_by_id" integer,
	"closed_at" timestamp with time zone,
	"milestone_id" integer,
	"due_date" date,
	"confidential" boolean DEFAULT false NOT NULL,
	"discussion_locked" boolean,
	"moved_to_id" integer,
	"duplicated_to_id" integer,
	"relative_position" integer,
	"weight" integer,
	"health_status" text,
	"epic_id" integer,
	"iteration_id" integer,
	"severity" text DEFAULT 'UNKNOWN' NOT NULL,
	"time_estimate" integer DEFAULT 0 NOT NULL,
	"total_time_spent" integer DEFAULT 0 NOT NULL,
	"upvotes" integer DEFAULT 0 NOT NULL,
	"downvotes" integer DEFAULT 0 NOT NULL,
	"user_notes_count" integer DEFAULT 0 NOT NULL,
	"merge_requests_count" integer DEFAULT 0 NOT NULL,
	"imported" boolean DEFAULT false NOT NULL,
	"imported_from" text DEFAULT 'none' NOT NULL,
	"updated_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "issues"."notes" (
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
CREATE TABLE "issues"."resource_state_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"issue_id" integer,
	"merge_request_id" integer,
	"state" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "issues"."subscriptions" (
	"subscribable_type" text NOT NULL,
	"subscribable_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"subscribed" boolean NOT NULL,
	CONSTRAINT "subscriptions_subscribable_type_subscribable_id_user_id_pk" PRIMARY KEY("subscribable_type","subscribable_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "issues"."issue_assignees" ADD CONSTRAINT "issue_assignees_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "issues"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issues"."issue_labels" ADD CONSTRAINT "issue_labels_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "issues"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "issue_assignees_user_idx" ON "issues"."issue_assignees" USING btree ("user_id","issue_id");--> statement-breakpoint
CREATE INDEX "issue_labels_label_idx" ON "issues"."issue_labels" USING btree ("label_id","issue_id");--> statement-breakpoint
CREATE UNIQUE INDEX "issues_project_iid_idx" ON "issues"."issues" USING btree ("project_id","iid");--> statement-breakpoint
CREATE INDEX "issues_project_created_idx" ON "issues"."issues" USING btree ("project_id","created_at","id");--> statement-breakpoint
CREATE INDEX "issues_project_state_created_idx" ON "issues"."issues" USING btree ("project_id","state","created_at","id");--> statement-breakpoint
CREATE INDEX "issues_project_updated_idx" ON "issues"."issues" USING btree ("project_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "issues_project_position_idx" ON "issues"."issues" USING btree ("project_id","relative_position","id");--> statement-breakpoint
CREATE INDEX "issues_project_due_idx" ON "issues"."issues" USING btree ("project_id","due_date","id");--> statement-breakpoint
CREATE INDEX "issues_author_idx" ON "issues"."issues" USING btree ("author_id","created_at");--> statement-breakpoint
CREATE INDEX "issues_milestone_idx" ON "issues"."issues" USING btree ("milestone_id");--> statement-breakpoint
CREATE INDEX "notes_noteable_idx" ON "issues"."notes" USING btree ("noteable_type","noteable_id","created_at","id");--> statement-breakpoint
CREATE INDEX "notes_discussion_idx" ON "issues"."notes" USING btree ("discussion_id","created_at");--> statement-breakpoint
CREATE INDEX "notes_project_idx" ON "issues"."notes" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "rse_issue_idx" ON "issues"."resource_state_events" USING btree ("issue_id","id");--> statement-breakpoint
CREATE INDEX "rse_mr_idx" ON "issues"."resource_state_events" USING btree ("merge_request_id","id");