CREATE SCHEMA "merge_requests";
--> statement-breakpoint
CREATE TABLE "merge_requests"."closing_issue_refs" (
	"merge_request_id" integer NOT NULL,
	"issue_project_id" integer NOT NULL,
	"issue_iid" integer NOT NULL,
	CONSTRAINT "closing_issue_refs_merge_request_id_issue_project_id_issue_iid_pk" PRIMARY KEY("merge_request_id","issue_project_id","issue_iid")
);
--> statement-breakpoint
CREATE TABLE "merge_requests"."internal_ids" (
	"project_id" integer NOT NULL,
	"usage" text NOT NULL,
	"last_value" integer NOT NULL,
	CONSTRAINT "internal_ids_project_id_usage_pk" PRIMARY KEY("project_id","usage")
);
--> statement-breakpoint
CREATE TABLE "merge_requests"."merge_request_assignees" (
	"merge_request_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "merge_request_assignees_merge_request_id_user_id_pk" PRIMARY KEY("merge_request_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "merge_requests"."merge_request_labels" (
	"merge_request_id" integer NOT NULL,
	"label_id" integer NOT NULL,
	CONSTRAINT "merge_request_labels_merge_request_id_label_id_pk" PRIMARY KEY("merge_request_id","label_id")
);
--> statement-breakpoint
CREATE TABLE "merge_requests"."merge_request_reviewers" (
	"merge_request_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "merge_request_reviewers_merge_request_id_user_id_pk" PRIMARY KEY("merge_request_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "merge_requests"."merge_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"source_project_id" integer NOT NULL,
	"iid" integer NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"state" text DEFAULT 'opened' NOT NULL,
	"draft" boolean DEFAULT false NOT NULL,
	"author_id" integer NOT NULL,
	"source_branch" text NOT NULL,
	"target_branch" text NOT NULL,
	"sha" text,
	"merge_commit_sha" text,
	"squash_commit_sha" text,
	"merge_user_id" integer,
	"merged_at" timestamp with time zone,
	"closed_by_id" integer,
	"closed_at" timestamp with time zone,
	"milestone_id" integer,
	"discussion_locked" boolean,
	"squash" boolean DEFAULT false NOT NULL,
	"force_remove_source_branch" boolean DEFAULT false NOT NULL,
	"should_remove_source_branch" boolean,
	"allow_collaboration" boolean DEFAULT false NOT NULL,
	"merge_when_pipeline_succeeds" boolean DEFAULT false NOT NULL,
	"merge_after" timestamp with time zone,
	"prepared_at" timestamp with time zone,
	"approvals_before_merge" integer,
	"time_estimate" integer DEFAULT 0 NOT NULL,
	"total_time_spent" integer DEFAULT 0 NOT NULL,
	"upvotes" integer DEFAULT 0 NOT NULL,
	"downvotes" integer DEFAULT 0 NOT NULL,
	"user_notes_count" integer DEFAULT 0 NOT NULL,
	"imported" boolean DEFAULT false NOT NULL,
	"imported_from" text DEFAULT 'none' NOT NULL,
	"updated_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "merge_requests"."closing_issue_refs" ADD CONSTRAINT "closing_issue_refs_merge_request_id_merge_requests_id_fk" FOREIGN KEY ("merge_request_id") REFERENCES "merge_requests"."merge_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merge_requests"."merge_request_assignees" ADD CONSTRAINT "merge_request_assignees_merge_request_id_merge_requests_id_fk" FOREIGN KEY ("merge_request_id") REFERENCES "merge_requests"."merge_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merge_requests"."merge_request_labels" ADD CONSTRAINT "merge_request_labels_merge_request_id_merge_requests_id_fk" FOREIGN KEY ("merge_request_id") REFERENCES "merge_requests"."merge_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merge_requests"."merge_request_reviewers" ADD CONSTRAINT "merge_request_reviewers_merge_request_id_merge_requests_id_fk" FOREIGN KEY ("merge_request_id") REFERENCES "merge_requests"."merge_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "closing_issue_refs_issue_idx" ON "merge_requests"."closing_issue_refs" USING btree ("issue_project_id","issue_iid");--> statement-breakpoint
CREATE INDEX "merge_request_assignees_user_idx" ON "merge_requests"."merge_request_assignees" USING btree ("user_id","merge_request_id");--> statement-breakpoint
CREATE INDEX "merge_request_labels_label_idx" ON "merge_requests"."merge_request_labels" USING btree ("label_id","merge_request_id");--> statement-breakpoint
CREATE INDEX "merge_request_reviewers_user_idx" ON "merge_requests"."merge_request_reviewers" USING btree ("user_id","merge_request_id");--> statement-breakpoint
CREATE UNIQUE INDEX "merge_requests_project_iid_idx" ON "merge_requests"."merge_requests" USING btree ("project_id","iid");--> statement-breakpoint
CREATE INDEX "merge_requests_project_created_idx" ON "merge_requests"."merge_requests" USING btree ("project_id","created_at","id");--> statement-breakpoint
CREATE INDEX "merge_requests_project_state_created_idx" ON "merge_requests"."merge_requests" USING btree ("project_id","state","created_at","id");--> statement-breakpoint
CREATE INDEX "merge_requests_project_updated_idx" ON "merge_requests"."merge_requests" USING btree ("project_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "merge_requests_source_branch_idx" ON "merge_requests"."merge_requests" USING btree ("source_project_id","source_branch","state");--> statement-breakpoint
CREATE INDEX "merge_requests_author_idx" ON "merge_requests"."merge_requests" USING btree ("author_id","created_at");--> statement-breakpoint
CREATE INDEX "merge_requests_milestone_idx" ON "merge_requests"."merge_requests" USING btree ("milestone_id");