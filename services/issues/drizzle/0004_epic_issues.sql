CREATE TABLE "issues"."epic_issues" (
	"id" serial PRIMARY KEY NOT NULL,
	"epic_id" integer NOT NULL,
	"issue_id" integer NOT NULL,
	"relative_position" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "issues"."epic_issues" ADD CONSTRAINT "epic_issues_epic_id_epics_id_fk" FOREIGN KEY ("epic_id") REFERENCES "issues"."epics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issues"."epic_issues" ADD CONSTRAINT "epic_issues_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "issues"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "epic_issues_issue_idx" ON "issues"."epic_issues" USING btree ("issue_id");--> statement-breakpoint
CREATE INDEX "epic_issues_epic_position_idx" ON "issues"."epic_issues" USING btree ("epic_id","relative_position","id");--> statement-breakpoint
ALTER TABLE "issues"."issues" DROP COLUMN "epic_id";