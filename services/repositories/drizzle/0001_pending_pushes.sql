CREATE TABLE "repositories"."pending_pushes" (
	"id" serial PRIMARY KEY NOT NULL,
	"repository_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"project_path" text NOT NULL,
	"user_id" integer NOT NULL,
	"user_username" text NOT NULL,
	"updates" jsonb NOT NULL,
	"held_until" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "repositories"."pending_pushes" ADD CONSTRAINT "pending_pushes_repository_id_repositories_id_fk" FOREIGN KEY ("repository_id") REFERENCES "repositories"."repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pending_pushes_held_until_idx" ON "repositories"."pending_pushes" USING btree ("held_until");