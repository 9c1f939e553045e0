CREATE TABLE "accounts"."group_saml_providers" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"sso_url" text NOT NULL,
	"certificate_fingerprint" text NOT NULL,
	"enforced_sso" boolean DEFAULT false NOT NULL,
	"default_membership_role" integer DEFAULT 10 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "accounts"."group_scim_identities" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"extern_uid" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "accounts"."group_scim_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"token_digest" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts"."group_scim_identities" ADD CONSTRAINT "group_scim_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "accounts"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "group_saml_providers_group_idx" ON "accounts"."group_saml_providers" USING btree ("group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "group_scim_identities_uid_idx" ON "accounts"."group_scim_identities" USING btree ("group_id",lower("extern_uid"));--> statement-breakpoint
CREATE UNIQUE INDEX "group_scim_identities_user_idx" ON "accounts"."group_scim_identities" USING btree ("group_id","user_id");--> statement-breakpoint
CREATE INDEX "group_scim_identities_user_id_idx" ON "accounts"."group_scim_identities" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "group_scim_tokens_group_idx" ON "accounts"."group_scim_tokens" USING btree ("group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "group_scim_tokens_digest_idx" ON "accounts"."group_scim_tokens" USING btree ("token_digest");