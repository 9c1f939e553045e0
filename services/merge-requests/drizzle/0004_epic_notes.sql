ALTER TABLE "merge_requests"."notes" ALTER COLUMN "project_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "merge_requests"."resource_state_events" ADD COLUMN "epic_id" integer;--> statement-breakpoint
CREATE INDEX "rse_epic_idx" ON "merge_requests"."resource_state_events" USING btree ("epic_id","id");