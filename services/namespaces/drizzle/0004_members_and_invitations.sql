CREATE TABLE "namespaces"."invitations" (
	"id" serial PRIMARY KEY NOT NULL,
	"source_type" text NOT NULL,
	"source_id" integer NOT NULL,
	"invite_email" text NOT NULL,
	"access_level" integer NOT NULL,
	"expires_at" date,
	"member_role_id" integer,
	"invite_token_digest" text NOT NULL,
	"invite_source" text,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "namespaces"."member_approvals" (
	"id" serial PRIMARY KEY NOT NULL,
	"source_type" text NOT NULL,
	"source_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"new_access_level" integer NOT NULL,
	"expires_at" date,
	"member_role_id" integer,
	"requested_by_id" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "namespaces"."members" ADD COLUMN "member_role_id" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_source_email_idx" ON "namespaces"."invitations" USING btree ("source_type","source_id","invite_email");--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_token_digest_idx" ON "namespaces"."invitations" USING btree ("invite_token_digest");--> statement-breakpoint
CREATE INDEX "invitations_email_idx" ON "namespaces"."invitations" USING btree ("invite_email");--> statement-breakpoint
CREATE UNIQUE INDEX "member_approvals_pending_idx" ON "namespaces"."member_approvals" USING btree ("source_type","source_id","user_id") WHERE "namespaces"."member_approvals"."status" = 'pending';