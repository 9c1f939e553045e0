CREATE TABLE "issues"."award_emoji" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"user_id" integer NOT NULL,
	"awardable_type" text NOT NULL,
	"awardable_id" integer NOT NULL,
	"project_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "issues"."timelogs" (
	"id" serial PRIMARY KEY NOT NULL,
	"time_spent" integer NOT NULL,
	"user_id" integer NOT NULL,
	"issue_id" integer,
	"merge_request_id" integer,
	"project_id" integer NOT NULL,
	"summary" text,
	"spent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "award_emoji_awardable_user_name_idx" ON "issues"."award_emoji" USING btree ("awardable_type","awardable_id","user_id","name");--> statement-breakpoint
CREATE INDEX "award_emoji_project_idx" ON "issues"."award_emoji" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "timelogs_issue_idx" ON "issues"."timelogs" USING btree ("issue_id");--> statement-breakpoint
CREATE INDEX "timelogs_mr_idx" ON "issues"."timelogs" USING btree ("merge_request_id");--> statement-breakpoint
CREATE INDEX "timelogs_project_idx" ON "issues"."timelogs" USING btree ("project_id");