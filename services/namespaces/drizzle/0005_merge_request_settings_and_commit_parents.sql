ALTER TABLE "namespaces"."projects" ADD COLUMN "only_allow_merge_if_all_discussions_are_resolved" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "namespaces"."projects" ADD COLUMN "remove_source_branch_after_merge" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "namespaces"."projects" ADD COLUMN "squash_option" text DEFAULT 'default_off' NOT NULL;--> statement-breakpoint
ALTER TABLE "namespaces"."repository_commits" ADD COLUMN "parent_ids" text[] DEFAULT '{}'::text[] NOT NULL;