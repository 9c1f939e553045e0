ALTER TABLE "namespaces"."namespaces" ADD COLUMN "marked_for_deletion_on" date;--> statement-breakpoint
ALTER TABLE "namespaces"."namespaces" ADD COLUMN "deleting_user_id" integer;--> statement-breakpoint
ALTER TABLE "namespaces"."projects" ADD COLUMN "marked_for_deletion_at" date;--> statement-breakpoint
ALTER TABLE "namespaces"."projects" ADD COLUMN "deleting_user_id" integer;--> statement-breakpoint
CREATE INDEX "namespaces_marked_for_deletion_idx" ON "namespaces"."namespaces" USING btree ("marked_for_deletion_on") WHERE "namespaces"."namespaces"."marked_for_deletion_on" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "projects_marked_for_deletion_idx" ON "namespaces"."projects" USING btree ("marked_for_deletion_at") WHERE "namespaces"."projects"."marked_for_deletion_at" IS NOT NULL;