CREATE SCHEMA "namespaces";
--> statement-breakpoint
CREATE TABLE "namespaces"."labels" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer,
	"group_id" integer,
	"title" text NOT NULL,
	"color" text NOT NULL,
	"description" text,
	"priority" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "namespaces"."members" (
	"id" serial PRIMARY KEY NOT NULL,
	"source_type" text NOT NULL,
	"source_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"access_level" integer NOT NULL,
	"expires_at" date,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "namespaces"."milestones" (
	"id" serial PRIMARY KEY NOT NULL,
	"iid" integer NOT NULL,
	"project_id" integer,
	"group_id" integer,
	"title" text NOT NULL,
	"description" text,
	"state" text DEFAULT 'active' NOT NULL,
	"due_date" date,
	"start_date" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "namespaces"."namespaces" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"path" text NOT NULL,
	"parent_id" integer,
	"owner_id" integer,
	"traversal_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"full_path" text NOT NULL,
	"full_name" text NOT NULL,
	"visibility" text DEFAULT 'private' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"project_creation_level" text DEFAULT 'developer' NOT NULL,
	"subgroup_creation_level" text DEFAULT 'maintainer' NOT NULL,
	"request_access_enabled" boolean DEFAULT true NOT NULL,
	"share_with_group_lock" boolean DEFAULT false NOT NULL,
	"require_two_factor_authentication" boolean DEFAULT false NOT NULL,
	"two_factor_grace_period" integer DEFAULT 48 NOT NULL,
	"lfs_enabled" boolean DEFAULT true NOT NULL,
	"emails_enabled" boolean DEFAULT true NOT NULL,
	"mentions_disabled" boolean DEFAULT false NOT NULL,
	"auto_devops_enabled" boolean,
	"default_branch" text,
	"repository_storage" text DEFAULT 'default' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "namespaces"."projects" (
	"id" serial PRIMARY KEY NOT NULL,
	"namespace_id" integer NOT NULL,
	"name" text NOT NULL,
	"path" text NOT NULL,
	"description" text,
	"visibility" text DEFAULT 'private' NOT NULL,
	"default_branch" text,
	"empty_repo" boolean DEFAULT true NOT NULL,
	"creator_id" integer,
	"archived" boolean DEFAULT false NOT NULL,
	"topics" text[] DEFAULT '{}'::text[] NOT NULL,
	"issues_access_level" text DEFAULT 'enabled' NOT NULL,
	"merge_requests_access_level" text DEFAULT 'enabled' NOT NULL,
	"wiki_access_level" text DEFAULT 'enabled' NOT NULL,
	"builds_access_level" text DEFAULT 'enabled' NOT NULL,
	"snippets_access_level" text DEFAULT 'enabled' NOT NULL,
	"repository_access_level" text DEFAULT 'enabled' NOT NULL,
	"request_access_enabled" boolean DEFAULT true NOT NULL,
	"repository_storage" text DEFAULT 'default' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_activity_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "namespaces"."labels" ADD CONSTRAINT "labels_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "namespaces"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "namespaces"."labels" ADD CONSTRAINT "labels_group_id_namespaces_id_fk" FOREIGN KEY ("group_id") REFERENCES "namespaces"."namespaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "namespaces"."milestones" ADD CONSTRAINT "milestones_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "namespaces"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "namespaces"."milestones" ADD CONSTRAINT "milestones_group_id_namespaces_id_fk" FOREIGN KEY ("group_id") REFERENCES "namespaces"."namespaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "namespaces"."projects" ADD CONSTRAINT "projects_namespace_id_namespaces_id_fk" FOREIGN KEY ("namespace_id") REFERENCES "namespaces"."namespaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "labels_project_title_idx" ON "namespaces"."labels" USING btree ("project_id","title") WHERE "namespaces"."labels"."project_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "labels_group_title_idx" ON "namespaces"."labels" USING btree ("group_id","title") WHERE "namespaces"."labels"."group_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "members_source_user_idx" ON "namespaces"."members" USING btree ("source_type","source_id","user_id");--> statement-breakpoint
CREATE INDEX "members_user_idx" ON "namespaces"."members" USING btree ("user_id","source_type","source_id");--> statement-breakpoint
CREATE UNIQUE INDEX "milestones_project_iid_idx" ON "namespaces"."milestones" USING btree ("project_id","iid") WHERE "namespaces"."milestones"."project_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "milestones_group_iid_idx" ON "namespaces"."milestones" USING btree ("group_id","iid") WHERE "namespaces"."milestones"."group_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "milestones_project_title_idx" ON "namespaces"."milestones" USING btree ("project_id","title") WHERE "namespaces"."milestones"."project_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "milestones_group_title_idx" ON "namespaces"."milestones" USING btree ("group_id","title") WHERE "namespaces"."milestones"."group_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "namespaces_full_path_lower_idx" ON "namespaces"."namespaces" USING btree (lower("full_path"));--> statement-breakpoint
CREATE INDEX "namespaces_parent_idx" ON "namespaces"."namespaces" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "namespaces_traversal_ids_idx" ON "namespaces"."namespaces" USING gin ("traversal_ids");--> statement-breakpoint
CREATE UNIQUE INDEX "namespaces_user_owner_idx" ON "namespaces"."namespaces" USING btree ("owner_id") WHERE "namespaces"."namespaces"."kind" = 'user';--> statement-breakpoint
CREATE UNIQUE INDEX "projects_namespace_path_lower_idx" ON "namespaces"."projects" USING btree ("namespace_id",lower("path"));--> statement-breakpoint
CREATE UNIQUE INDEX "projects_namespace_name_lower_idx" ON "namespaces"."projects" USING btree ("namespace_id",lower("name"));--> statement-breakpoint
CREATE INDEX "projects_visibility_idx" ON "namespaces"."projects" USING btree ("visibility");--> statement-breakpoint
CREATE INDEX "projects_created_at_idx" ON "namespaces"."projects" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "projects_repository_storage_idx" ON "namespaces"."projects" USING btree ("repository_storage");