CREATE TABLE "merge_requests"."resource_label_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"issue_id" integer,
	"merge_request_id" integer,
	"epic_id" integer,
	"label_id" integer,
	"action" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "merge_requests"."resource_milestone_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"issue_id" integer,
	"merge_request_id" integer,
	"epic_id" integer,
	"milestone_id" integer,
	"action" text NOT NULL,
	"state" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rle_issue_idx" ON "merge_requests"."resource_label_events" USING btree ("issue_id","id");--> statement-breakpoint
CREATE INDEX "rle_mr_idx" ON "merge_requests"."resource_label_events" USING btree ("merge_request_id","id");--> statement-breakpoint
CREATE INDEX "rle_epic_idx" ON "merge_requests"."resource_label_events" USING btree ("epic_id","id");--> statement-breakpoint
CREATE INDEX "rle_label_idx" ON "merge_requests"."resource_label_events" USING btree ("label_id");--> statement-breakpoint
CREATE INDEX "rme_issue_idx" ON "merge_requests"."resource_milestone_events" USING btree ("issue_id","id");--> statement-breakpoint
CREATE INDEX "rme_mr_idx" ON "merge_requests"."resource_milestone_events" USING btree ("merge_request_id","id");--> statement-breakpoint
CREATE INDEX "rme_epic_idx" ON "merge_requests"."resource_milestone_events" USING btree ("epic_id","id");--> statement-breakpoint
CREATE INDEX "rme_milestone_idx" ON "merge_requests"."resource_milestone_events" USING btree ("milestone_id");