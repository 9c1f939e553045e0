CREATE TABLE "issues"."issue_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"source_id" integer NOT NULL,
	"target_id" integer NOT NULL,
	"link_type" text DEFAULT 'relates_to' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "issues"."issue_links" ADD CONSTRAINT "issue_links_source_id_issues_id_fk" FOREIGN KEY ("source_id") REFERENCES "issues"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issues"."issue_links" ADD CONSTRAINT "issue_links_target_id_issues_id_fk" FOREIGN KEY ("target_id") REFERENCES "issues"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "issue_links_source_target_idx" ON "issues"."issue_links" USING btree ("source_id","target_id");--> statement-breakpoint
CREATE INDEX "issue_links_target_idx" ON "issues"."issue_links" USING btree ("target_id");--> statement-breakpoint
CREATE INDEX "issue_links_blocking_idx" ON "issues"."issue_links" USING btree ("source_id") WHERE link_type = 'blocks';