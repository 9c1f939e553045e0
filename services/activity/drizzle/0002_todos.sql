CREATE TABLE "activity"."todos" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"author_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"target_type" text NOT NULL,
	"target_id" integer NOT NULL,
	"action" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"body" text,
	"note_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "todos_user_state_idx" ON "activity"."todos" USING btree ("user_id","state","id");--> statement-breakpoint
CREATE INDEX "todos_target_idx" ON "activity"."todos" USING btree ("target_type","target_id");--> statement-breakpoint
CREATE INDEX "todos_project_idx" ON "activity"."todos" USING btree ("project_id");--> statement-breakpoint
CREATE UNIQUE INDEX "todos_pending_marked_idx" ON "activity"."todos" USING btree ("user_id","target_type","target_id") WHERE "activity"."todos"."state" = 'pending' AND "activity"."todos"."action" = 'marked';