CREATE SCHEMA "runners";
--> statement-breakpoint
CREATE TABLE "runners"."internal_ids" (
	"project_id" integer NOT NULL,
	"usage" text NOT NULL,
	"last_value" integer NOT NULL,
	CONSTRAINT "internal_ids_project_id_usage_pk" PRIMARY KEY("project_id","usage")
);
--> statement-breakpoint
CREATE TABLE "runners"."jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"pipeline_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"runner_id" integer,
	"name" text NOT NULL,
	"stage" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"ref" text NOT NULL,
	"tag" boolean DEFAULT false NOT NULL,
	"coverage" real,
	"allow_failure" boolean DEFAULT false NOT NULL,
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "runners"."pipeline_schedule_variables" (
	"id" serial PRIMARY KEY NOT NULL,
	"schedule_id" integer NOT NULL,
	"key" text NOT NULL,
	"value" text NOT NULL,
	"variable_type" text DEFAULT 'env_var' NOT NULL,
	"raw" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "runners"."pipeline_schedules" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"description" text NOT NULL,
	"ref" text NOT NULL,
	"cron" text NOT NULL,
	"cron_timezone" text DEFAULT 'UTC' NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"owner_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "runners"."pipelines" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"iid" integer NOT NULL,
	"status" text DEFAULT 'created' NOT NULL,
	"source" text NOT NULL,
	"ref" text NOT NULL,
	"tag" boolean DEFAULT false NOT NULL,
	"sha" text NOT NULL,
	"user_id" integer,
	"schedule_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "runners"."protected_environment_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"protected_environment_id" integer NOT NULL,
	"kind" text NOT NULL,
	"access_level" integer,
	"user_id" integer,
	"group_id" integer,
	"group_inheritance_type" integer DEFAULT 0 NOT NULL,
	"required_approvals" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "runners"."protected_environments" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"name" text NOT NULL,
	"required_approval_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "runners"."registration_tokens" (
	"scope" text NOT NULL,
	"scope_id" integer NOT NULL,
	"token_digest" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "registration_tokens_scope_scope_id_pk" PRIMARY KEY("scope","scope_id")
);
--> statement-breakpoint
CREATE TABLE "runners"."runner_projects" (
	"runner_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "runner_projects_runner_id_project_id_pk" PRIMARY KEY("runner_id","project_id")
);
--> statement-breakpoint
CREATE TABLE "runners"."runners" (
	"id" serial PRIMARY KEY NOT NULL,
	"runner_type" text NOT NULL,
	"group_id" integer,
	"description" text DEFAULT '' NOT NULL,
	"name" text,
	"token_digest" text NOT NULL,
	"token_expires_at" timestamp with time zone,
	"registration_type" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"locked" boolean DEFAULT false NOT NULL,
	"run_untagged" boolean DEFAULT true NOT NULL,
	"tag_list" text[] DEFAULT '{}'::text[] NOT NULL,
	"access_level" text DEFAULT 'not_protected' NOT NULL,
	"maximum_timeout" integer,
	"maintenance_note" text,
	"version" text,
	"revision" text,
	"platform" text,
	"architecture" text,
	"contacted_at" timestamp with time zone,
	"creator_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "runners"."jobs" ADD CONSTRAINT "jobs_pipeline_id_pipelines_id_fk" FOREIGN KEY ("pipeline_id") REFERENCES "runners"."pipelines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "runners"."pipeline_schedule_variables" ADD CONSTRAINT "pipeline_schedule_variables_schedule_id_pipeline_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "runners"."pipeline_schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "runners"."protected_environment_entries" ADD CONSTRAINT "protected_environment_entries_protected_environment_id_protected_environments_id_fk" FOREIGN KEY ("protected_environment_id") REFERENCES "runners"."protected_environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "runners"."runner_projects" ADD CONSTRAINT "runner_projects_runner_id_runners_id_fk" FOREIGN KEY ("runner_id") REFERENCES "runners"."runners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "jobs_runner_idx" ON "runners"."jobs" USING btree ("runner_id","id");--> statement-breakpoint
CREATE INDEX "jobs_pipeline_idx" ON "runners"."jobs" USING btree ("pipeline_id");--> statement-breakpoint
CREATE INDEX "jobs_pending_idx" ON "runners"."jobs" USING btree ("status","project_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pipeline_schedule_variables_key_idx" ON "runners"."pipeline_schedule_variables" USING btree ("schedule_id","key");--> statement-breakpoint
CREATE INDEX "pipeline_schedules_project_idx" ON "runners"."pipeline_schedules" USING btree ("project_id","id");--> statement-breakpoint
CREATE INDEX "pipeline_schedules_due_idx" ON "runners"."pipeline_schedules" USING btree ("next_run_at") WHERE "runners"."pipeline_schedules"."active";--> statement-breakpoint
CREATE UNIQUE INDEX "pipelines_project_iid_idx" ON "runners"."pipelines" USING btree ("project_id","iid");--> statement-breakpoint
CREATE INDEX "pipelines_schedule_idx" ON "runners"."pipelines" USING btree ("schedule_id","id");--> statement-breakpoint
CREATE INDEX "protected_environment_entries_env_idx" ON "runners"."protected_environment_entries" USING btree ("protected_environment_id","kind","id");--> statement-breakpoint
CREATE UNIQUE INDEX "protected_environments_group_name_idx" ON "runners"."protected_environments" USING btree ("group_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "registration_tokens_digest_idx" ON "runners"."registration_tokens" USING btree ("token_digest");--> statement-breakpoint
CREATE INDEX "runner_projects_project_idx" ON "runners"."runner_projects" USING btree ("project_id");--> statement-breakpoint
CREATE UNIQUE INDEX "runners_token_digest_idx" ON "runners"."runners" USING btree ("token_digest");--> statement-breakpoint
CREATE INDEX "runners_group_idx" ON "runners"."runners" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "runners_type_idx" ON "runners"."runners" USING btree ("runner_type");