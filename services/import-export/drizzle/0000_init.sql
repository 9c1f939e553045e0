CREATE SCHEMA "import_export";
--> statement-breakpoint
CREATE TABLE "import_export"."group_exports" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"retries" integer DEFAULT 0 NOT NULL,
	"archive" "bytea",
	"archive_size" integer,
	"filename" text,
	"error_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "import_export"."group_imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"importer_id" integer NOT NULL,
	"importer_username" text NOT NULL,
	"importer_admin" boolean DEFAULT false NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"archive" "bytea",
	"archive_size" integer NOT NULL,
	"filename" text NOT NULL,
	"error_message" text,
	"statistics" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "group_exports_group_user_idx" ON "import_export"."group_exports" USING btree ("group_id","user_id");--> statement-breakpoint
CREATE INDEX "group_exports_state_idx" ON "import_export"."group_exports" USING btree ("state","id");--> statement-breakpoint
CREATE INDEX "group_imports_state_idx" ON "import_export"."group_imports" USING btree ("state","id");--> statement-breakpoint
CREATE INDEX "group_imports_group_idx" ON "import_export"."group_imports" USING btree ("group_id");