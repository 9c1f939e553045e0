ALTER TABLE "import_export"."group_imports" ADD COLUMN "retries" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "import_export"."group_imports" ADD COLUMN "progress" jsonb;--> statement-breakpoint
ALTER TABLE "import_export"."vulnerability_exports" ADD COLUMN "retries" integer DEFAULT 0 NOT NULL;