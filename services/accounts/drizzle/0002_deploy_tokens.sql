CREATE TABLE "accounts"."deploy_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer,
	"group_id" integer,
	"name" text NOT NULL,
	"username" text,
	"token_digest" text NOT NULL,
	"scopes" text[] NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked" boolean DEFAULT false NOT NULL,
	"creator_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deploy_tokens_one_holder" CHECK (("accounts"."deploy_tokens"."project_id" IS NULL) <> ("accounts"."deploy_tokens"."group_id" IS NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "deploy_tokens_token_digest_idx" ON "accounts"."deploy_tokens" USING btree ("token_digest");--> statement-breakpoint
CREATE INDEX "deploy_tokens_project_idx" ON "accounts"."deploy_tokens" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "deploy_tokens_group_idx" ON "accounts"."deploy_tokens" USING btree ("group_id");