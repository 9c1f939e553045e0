CREATE SCHEMA "accounts";
--> statement-breakpoint
CREATE TABLE "accounts"."personal_access_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"token_digest" text NOT NULL,
	"scopes" text[] NOT NULL,
	"expires_at" date,
	"revoked" boolean DEFAULT false NOT NULL,
	"impersonation" boolean DEFAULT false NOT NULL,
	"last_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "accounts"."users" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"state" text DEFAULT 'active' NOT NULL,
	"admin" boolean DEFAULT false NOT NULL,
	"bot" boolean DEFAULT false NOT NULL,
	"user_type" text DEFAULT 'human' NOT NULL,
	"password_digest" text,
	"can_create_group" boolean DEFAULT true NOT NULL,
	"projects_limit" integer DEFAULT 100000 NOT NULL,
	"external" boolean DEFAULT false NOT NULL,
	"private_profile" boolean DEFAULT false NOT NULL,
	"bio" text DEFAULT '' NOT NULL,
	"location" text DEFAULT '' NOT NULL,
	"public_email" text,
	"website_url" text DEFAULT '' NOT NULL,
	"organization" text DEFAULT '' NOT NULL,
	"job_title" text DEFAULT '' NOT NULL,
	"pronouns" text,
	"linkedin" text DEFAULT '' NOT NULL,
	"twitter" text DEFAULT '' NOT NULL,
	"discord" text DEFAULT '' NOT NULL,
	"note" text,
	"provisioned_by_group_id" integer,
	"created_by_id" integer,
	"confirmed_at" timestamp with time zone,
	"last_activity_on" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts"."personal_access_tokens" ADD CONSTRAINT "personal_access_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "accounts"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "pat_token_digest_idx" ON "accounts"."personal_access_tokens" USING btree ("token_digest");--> statement-breakpoint
CREATE INDEX "pat_user_idx" ON "accounts"."personal_access_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_lower_idx" ON "accounts"."users" USING btree (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_idx" ON "accounts"."users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_state_idx" ON "accounts"."users" USING btree ("state");