CREATE TABLE "issues"."epic_labels" (
	"epic_id" integer NOT NULL,
	"label_id" integer NOT NULL,
	CONSTRAINT "epic_labels_epic_id_label_id_pk" PRIMARY KEY("epic_id","label_id")
);
--> statement-breakpoint
CREATE TABLE "issues"."epics" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"iid" integer NOT NULL,
	"parent_id" integer,
	"title" text NOT NULL,
	"description" text,
	"state" text DEFAULT 'opened' NOT NULL,
	"author_id" integer NOT NULL,
	"closed_by_id" integer,
	"closed_at" timestamp with time zone,
	"confidential" boolean DEFAULT false NOT NULL,
	"color" text DEFAULT '#1068bf' NOT NULL,
	"start_date_fixed" date,
	"start_date_is_fixed" boolean DEFAULT false NOT NULL,
	"due_date_fixed" date,
	"due_date_is_fixed" boolean DEFAULT false NOT NULL,
	"relative_position" integer,
	"upvotes" integer DEFAULT 0 NOT NULL,
	"downvotes" integer DEFAULT 0 NOT NULL,
	"user_notes_count" integer DEFAULT 0 NOT NULL,
	"updated_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "issues"."group_internal_ids" (
	"group_id" integer NOT NULL,
	"usage" text NOT NULL,
	"last_value" integer NOT NULL,
	CONSTRAINT "group_internal_ids_group_id_usage_pk" PRIMARY KEY("group_id","usage")
);
--> statement-breakpoint
ALTER TABLE "issues"."epic_labels" ADD CONSTRAINT "epic_labels_epic_id_epics_id_fk" FOREIGN KEY ("epic_id") REFERENCES "issues"."epics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "epic_labels_label_idx" ON "issues"."epic_labels" USING btree ("label_id","epic_id");--> statement-breakpoint
CREATE UNIQUE INDEX "epics_group_iid_idx" ON "issues"."epics" USING btree ("group_id","iid");--> statement-breakpoint
CREATE INDEX "epics_group_created_idx" ON "issues"."epics" USING btree ("group_id","created_at","id");--> statement-breakpoint
CREATE INDEX "epics_parent_idx" ON "issues"."epics" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "epics_author_idx" ON "issues"."epics" USING btree ("author_id");