DROP TABLE "namespaces"."repository_commits" CASCADE;--> statement-breakpoint
DROP TABLE "namespaces"."repository_refs" CASCADE;