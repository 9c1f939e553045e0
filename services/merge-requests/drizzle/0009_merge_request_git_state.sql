ALTER TABLE "merge_requests"."merge_requests" ADD COLUMN "base_sha" text;--> statement-breakpoint
ALTER TABLE "merge_requests"."merge_requests" ADD COLUMN "start_sha" text;--> statement-breakpoint
ALTER TABLE "merge_requests"."merge_requests" ADD COLUMN "changes_count" text;--> statement-breakpoint
ALTER TABLE "merge_requests"."merge_requests" ADD COLUMN "merge_status" text DEFAULT 'unchecked' NOT NULL;--> statement-breakpoint
ALTER TABLE "merge_requests"."merge_requests" ADD COLUMN "behind_target" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "merge_requests"."merge_requests" ADD COLUMN "source_branch_exists" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "merge_requests"."merge_requests" ADD COLUMN "merge_error" text;