CREATE SCHEMA "packages";
--> statement-breakpoint
CREATE TABLE "packages"."file_chunks" (
	"file_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "file_chunks_file_id_seq_pk" PRIMARY KEY("file_id","seq")
);
--> statement-breakpoint
CREATE TABLE "packages"."npm_metadata" (
	"package_id" integer PRIMARY KEY NOT NULL,
	"package_json" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "packages"."outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL,
	"name" text NOT NULL,
	"payload" jsonb NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_until" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	CONSTRAINT "outbox_event_id_unique" UNIQUE("event_id")
);
--> statement-breakpoint
CREATE TABLE "packages"."package_build_infos" (
	"id" serial PRIMARY KEY NOT NULL,
	"package_id" integer NOT NULL,
	"pipeline_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "packages"."package_file_build_infos" (
	"id" serial PRIMARY KEY NOT NULL,
	"package_file_id" integer NOT NULL,
	"pipeline_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "packages"."package_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"package_id" integer NOT NULL,
	"file_name" text NOT NULL,
	"size" bigint DEFAULT 0 NOT NULL,
	"file_md5" text,
	"file_sha1" text,
	"file_sha256" text,
	"status" text DEFAULT 'default' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "packages"."package_tags" (
	"id" serial PRIMARY KEY NOT NULL,
	"package_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "packages"."packages" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"version" text,
	"package_type" text NOT NULL,
	"status" text DEFAULT 'default' NOT NULL,
	"creator_id" integer,
	"last_downloaded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "packages"."processed_events" (
	"event_id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "packages"."protection_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"package_name_pattern" text NOT NULL,
	"package_type" text NOT NULL,
	"minimum_access_level_for_push" text,
	"minimum_access_level_for_delete" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "packages"."file_chunks" ADD CONSTRAINT "file_chunks_file_id_package_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "packages"."package_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "packages"."npm_metadata" ADD CONSTRAINT "npm_metadata_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "packages"."packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "packages"."package_build_infos" ADD CONSTRAINT "package_build_infos_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "packages"."packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "packages"."package_file_build_infos" ADD CONSTRAINT "package_file_build_infos_package_file_id_package_files_id_fk" FOREIGN KEY ("package_file_id") REFERENCES "packages"."package_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "packages"."package_files" ADD CONSTRAINT "package_files_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "packages"."packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "packages"."package_tags" ADD CONSTRAINT "package_tags_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "packages"."packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbox_pending_idx" ON "packages"."outbox" USING btree ("claimed_until","id");--> statement-breakpoint
CREATE UNIQUE INDEX "package_build_infos_package_pipeline_idx" ON "packages"."package_build_infos" USING btree ("package_id","pipeline_id");--> statement-breakpoint
CREATE INDEX "package_file_build_infos_file_idx" ON "packages"."package_file_build_infos" USING btree ("package_file_id");--> statement-breakpoint
CREATE INDEX "package_files_package_idx" ON "packages"."package_files" USING btree ("package_id","file_name");--> statement-breakpoint
CREATE INDEX "package_files_pending_destruction_idx" ON "packages"."package_files" USING btree ("id") WHERE "packages"."package_files"."status" = 'pending_destruction';--> statement-breakpoint
CREATE INDEX "package_tags_package_idx" ON "packages"."package_tags" USING btree ("package_id");--> statement-breakpoint
CREATE INDEX "package_tags_project_name_idx" ON "packages"."package_tags" USING btree ("project_id","name");--> statement-breakpoint
CREATE INDEX "packages_project_type_name_idx" ON "packages"."packages" USING btree ("project_id","package_type","name","version");--> statement-breakpoint
CREATE INDEX "packages_pending_destruction_idx" ON "packages"."packages" USING btree ("id") WHERE "packages"."packages"."status" = 'pending_destruction';--> statement-breakpoint
CREATE UNIQUE INDEX "protection_rules_project_type_pattern_idx" ON "packages"."protection_rules" USING btree ("project_id","package_type","package_name_pattern");--> statement-breakpoint
ALTER TABLE "packages"."file_chunks" ALTER COLUMN "data" SET STORAGE EXTERNAL;
