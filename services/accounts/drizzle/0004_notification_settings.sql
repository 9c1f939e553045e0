CREATE TABLE "accounts"."notification_settings" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"source_type" text NOT NULL,
	"source_id" integer,
	"level" text NOT NULL,
	"notification_email" text,
	"new_note" boolean DEFAULT false NOT NULL,
	"new_issue" boolean DEFAULT false NOT NULL,
	"reopen_issue" boolean DEFAULT false NOT NULL,
	"close_issue" boolean DEFAULT false NOT NULL,
	"reassign_issue" boolean DEFAULT false NOT NULL,
	"issue_due" boolean DEFAULT false NOT NULL,
	"new_merge_request" boolean DEFAULT false NOT NULL,
	"push_to_merge_request" boolean DEFAULT false NOT NULL,
	"reopen_merge_request" boolean DEFAULT false NOT NULL,
	"close_merge_request" boolean DEFAULT false NOT NULL,
	"reassign_merge_request" boolean DEFAULT false NOT NULL,
	"merge_merge_request" boolean DEFAULT false NOT NULL,
	"failed_pipeline" boolean DEFAULT true NOT NULL,
	"fixed_pipeline" boolean DEFAULT true NOT NULL,
	"success_pipeline" boolean DEFAULT false NOT NULL,
	"moved_project" boolean DEFAULT true NOT NULL,
	"merge_when_pipeline_succeeds" boolean DEFAULT false NOT NULL,
	"new_epic" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_settings_source_check" CHECK (("accounts"."notification_settings"."source_type" = 'global' AND "accounts"."notification_settings"."source_id" IS NULL) OR ("accounts"."notification_settings"."source_type" IN ('group', 'project') AND "accounts"."notification_settings"."source_id" IS NOT NULL))
);
--> statement-breakpoint
ALTER TABLE "accounts"."notification_settings" ADD CONSTRAINT "notification_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "accounts"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notification_settings_global_idx" ON "accounts"."notification_settings" USING btree ("user_id") WHERE "accounts"."notification_settings"."source_type" = 'global';--> statement-breakpoint
CREATE UNIQUE INDEX "notification_settings_source_idx" ON "accounts"."notification_settings" USING btree ("user_id","source_type","source_id") WHERE "accounts"."notification_settings"."source_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "notification_settings_source_lookup_idx" ON "accounts"."notification_settings" USING btree ("source_type","source_id");