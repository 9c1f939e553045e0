ALTER TABLE "activity"."events" ALTER COLUMN "project_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "activity"."events" ADD COLUMN "group_id" integer;--> statement-breakpoint
CREATE INDEX "events_group_idx" ON "activity"."events" USING btree ("group_id","id") WHERE "activity"."events"."group_id" IS NOT NULL;