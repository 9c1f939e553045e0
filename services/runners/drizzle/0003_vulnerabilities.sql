CREATE TABLE "runners"."job_artifacts" (
	"id" serial PRIMARY KEY NOT NULL,
	"job_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"file_type" text NOT NULL,
	"file_format" text NOT NULL,
	"filename" text NOT NULL,
	"size" integer NOT NULL,
	"file_sha256" text NOT NULL,
	"file" "bytea" NOT NULL,
	"expire_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "runners"."vulnerabilities" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"uuid" text NOT NULL,
	"report_type" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"solution" text,
	"severity" text NOT NULL,
	"confidence" text,
	"state" text DEFAULT 'detected' NOT NULL,
	"identifiers" jsonb NOT NULL,
	"location" jsonb NOT NULL,
	"file" text,
	"start_line" integer,
	"end_line" integer,
	"package_name" text,
	"package_version" text,
	"cvss_vectors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"scanner_external_id" text NOT NULL,
	"scanner_name" text NOT NULL,
	"resolved_on_default_branch" boolean DEFAULT false NOT NULL,
	"pipeline_id" integer NOT NULL,
	"job_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"detected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "runners"."job_artifacts" ADD CONSTRAINT "job_artifacts_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "runners"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "job_artifacts_job_type_idx" ON "runners"."job_artifacts" USING btree ("job_id","file_type");--> statement-breakpoint
CREATE INDEX "job_artifacts_project_idx" ON "runners"."job_artifacts" USING btree ("project_id");--> statement-breakpoint
CREATE UNIQUE INDEX "vulnerabilities_project_uuid_idx" ON "runners"."vulnerabilities" USING btree ("project_id","uuid");--> statement-breakpoint
CREATE INDEX "vulnerabilities_project_id_idx" ON "runners"."vulnerabilities" USING btree ("project_id","id");