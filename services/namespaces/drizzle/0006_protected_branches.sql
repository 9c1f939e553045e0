CREATE TABLE "namespaces"."protected_branch_defaults" (
	"project_id" integer NOT NULL,
	CONSTRAINT "protected_branch_defaults_project_id_pk" PRIMARY KEY("project_id")
);
--> statement-breakpoint
CREATE TABLE "namespaces"."protected_branches" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"push_access_level" integer DEFAULT 40 NOT NULL,
	"merge_access_level" integer DEFAULT 40 NOT NULL,
	"unprotect_access_level" integer DEFAULT 40 NOT NULL,
	"allow_force_push" boolean DEFAULT false NOT NULL,
	"code_owner_approval_required" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "namespaces"."protected_branch_defaults" ADD CONSTRAINT "protected_branch_defaults_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "namespaces"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "namespaces"."protected_branches" ADD CONSTRAINT "protected_branches_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "namespaces"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "protected_branches_project_name_idx" ON "namespaces"."protected_branches" USING btree ("project_id","name");