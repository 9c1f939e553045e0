CREATE TABLE "namespaces"."repository_commits" (
	"sha" text PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"title" text NOT NULL,
	"message" text NOT NULL,
	"author_name" text NOT NULL,
	"author_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "namespaces"."repository_refs" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"sha" text NOT NULL,
	"message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "namespaces"."repository_commits" ADD CONSTRAINT "repository_commits_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "namespaces"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "namespaces"."repository_refs" ADD CONSTRAINT "repository_refs_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "namespaces"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "repository_commits_project_idx" ON "namespaces"."repository_commits" USING btree ("project_id");--> statement-breakpoint
CREATE UNIQUE INDEX "repository_refs_project_kind_name_idx" ON "namespaces"."repository_refs" USING btree ("project_id","kind","name");