ALTER TABLE "issues"."notes" ALTER COLUMN "project_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "issues"."resource_state_events" ADD COLUMN "epic_id" integer;--> statement-breakpoint
CREATE INDEX "rse_epic_idx" ON "issues"."resource_state_events" USING btree ("epic_id","id");